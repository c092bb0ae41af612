import { z } from "zod";
import { summaryLine, isZodLike } from "@/lib/tools/define";
import { ruleCallOf, ruleDecisionText, type RuleDecider, type RuleVerdict } from "@/lib/tools/approval-rules";
import { needsConfirmation, notAdmittedText } from "@/lib/tools/confirm";
import { invoke } from "@/lib/tools/invoke";
import type { Registry, RegisteredTool } from "@/lib/tools/registry-types";
import type { ToolContext, ToolOutput } from "@/lib/tools/types";
import type { Settings } from "@/lib/settings/schema";
import { approvalReasonSchema } from "@/lib/server/approvals/approval-reason";
import { audit } from "@/lib/server/auth/audit";
import { newOwner } from "@/lib/server/auth/ownership";
import type { CallElicitation } from "@/lib/chat/metadata";
import { askPerson, type ElicitationRecord } from "@/lib/server/elicitations/pending";
import { createToolContext } from "@/lib/server/runtime/tool-context";
import type { ApprovalStore } from "./try-it-approvals";

/** `POST /api/tools/[name]/invoke` body. */
export interface TryItRequest {
  input: unknown;
  approvalId?: string;
  decision?: "approve" | "deny";
  reason?: string;
  /** With `decision: "approve"`: the arguments the person edited; the call runs with these (the approval still names `input`). */
  editedInput?: unknown;
  /** The page's id for this call: questions the tool asks (`ctx.elicit`) wait under `try-it:<id>` for the page to answer. */
  elicitScope?: string;
}

export interface FieldIssue {
  /** Dotted path into the input ("" for the input itself). */
  path: string;
  message: string;
}

export type TryItResponse =
  | {
      status: "done";
      text: string;
      output: ToolOutput;
      isError: boolean;
      durationMs: number;
      madeChanges: boolean;
      timedOut: boolean;
      /** What the tool asked the person while it ran, and the answers (as a chat's ToolCall row records them). */
      elicitations?: CallElicitation[];
    }
  | {
      status: "approval-required";
      approvalId: string;
      expiresAt: string;
      toolName: string;
      sourcePackage: string;
      readonly: boolean;
      summary: string;
      input: unknown;
    }
  | { status: "not-admitted"; why: "denied" | "timed-out"; text: string; rule?: string }
  | { status: "invalid"; message: string; issues: FieldIssue[] }
  | { status: "error"; error: string; code: string };

export interface TryItDeps {
  registry: Registry;
  settings: Settings;
  approvals: ApprovalStore;
  /** Approval rules, decided before the tool's own confirmation as in chat. */
  rules?: RuleDecider;
}

type Reply = { httpStatus: number; body: TryItResponse };
const reply = (httpStatus: number, body: TryItResponse): Reply => ({ httpStatus, body });

/** Field-level issues from the tool's own schema (zod) or its JSON Schema (through zod). */
async function inputIssues(
  tool: RegisteredTool,
  definitionInput: unknown,
  input: unknown,
): Promise<{ ok: true; value: unknown } | { ok: false; issues: FieldIssue[] }> {
  let result: { success: true; data: unknown } | { success: false; error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } };
  try {
    if (isZodLike(definitionInput)) result = definitionInput.safeParse(input);
    else result = z.fromJSONSchema(tool.inputSchema).safeParse(input);
  } catch (error) {
    return { ok: false, issues: [{ path: "", message: `the input schema cannot be checked: ${(error as Error).message}` }] };
  }
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, issues: result.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message })) };
}

const tryItRequestSchema = z.object({
  input: z.unknown().refine((v) => v !== undefined, "the body has no `input` field"),
  approvalId: z.string().max(200).optional(),
  // Strictly one of the two words: anything else decides nothing.
  decision: z.enum(["approve", "deny"]).optional(),
  reason: approvalReasonSchema.optional(),
  editedInput: z.unknown().optional(),
  elicitScope: z
    .string()
    .regex(/^[\w-]{8,100}$/)
    .optional(),
});

function parseRequest(body: unknown): TryItRequest | string {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return "the body must be a JSON object with an `input` field";
  const parsed = tryItRequestSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return `${issue?.path.map(String).join(".") || "body"}: ${issue?.message ?? "invalid"}`;
}

/**
 * One try-it call, through the same `invoke` and the same approval rule as chat. A confirming
 * call is answered with `approval-required` (a pending approval is stored); it runs only when
 * the same input comes back with that approval id and `decision: "approve"`.
 */
export async function runTryIt(name: string, rawBody: unknown, deps: TryItDeps): Promise<Reply> {
  const registered = deps.registry.get(name);
  if (!registered) return reply(404, { status: "error", error: `no tool named ${name} is registered`, code: "unknown_tool" });
  if (!registered.enabled)
    return reply(409, { status: "error", error: `${name} is disabled in settings (tools.${name}.enabled: false)`, code: "tool_disabled" });
  const request = parseRequest(rawBody);
  if (typeof request === "string") return reply(400, { status: "error", error: request, code: "invalid_request" });

  const timeoutSeconds = deps.settings.chat.approvalTimeoutSeconds;
  const scope = request.elicitScope;
  const asked: CallElicitation[] = [];
  const onDecided = (r: ElicitationRecord) =>
    asked.push({ message: r.message, action: r.action, by: r.decidedBy, ...(r.content ? { content: r.content } : {}), at: r.decidedAt });
  const ctx: ToolContext = {
    ...createToolContext({ settings: deps.settings, toolName: name }),
    elicit: scope
      ? (message, schema) => askPerson(`try-it:${scope}`, name, message, schema, { timeoutSeconds, ownerId: newOwner(), onDecided })
      : async () => ({ action: "not-admitted", reason: "the request gave no elicitScope to answer questions under" }),
  };
  let tool;
  try {
    tool = registered.resolve(ctx);
  } catch (error) {
    return reply(500, { status: "error", error: `${name} could not be set up: ${(error as Error).message}`, code: "tool_setup_failed" });
  }

  const ruleFor = (input: unknown) => deps.rules?.(ruleCallOf(registered, input, name));
  const refused = (verdict: RuleVerdict, input: unknown) =>
    reply(200, {
      status: "not-admitted",
      why: "denied",
      text: notAdmittedText(tool, input, { kind: "denied", reason: verdict.reason ?? ruleDecisionText(verdict) }),
      rule: ruleDecisionText(verdict),
    });
  let runInput = request.input;

  if (request.editedInput !== undefined && request.decision !== "approve")
    return reply(400, { status: "error", error: "editedInput comes only with decision: approve", code: "invalid_edit" });
  if (request.decision) {
    const check = await deps.approvals.take(request.approvalId, name, request.input);
    if (!check.ok && check.reason === "expired") {
      await audit("approval.timed-out", request.approvalId ?? "", { tool: name, from: "try-it" });
      return reply(200, { status: "not-admitted", why: "timed-out", text: notAdmittedText(tool, request.input, { kind: "timed-out" }) });
    }
    // Unknown (never issued, or someone else's) is a 404 as a chat of someone else's is; the rest a 409.
    if (!check.ok && check.reason === "unknown") return reply(404, { status: "error", error: `approval refused: ${check.message}`, code: "unknown_approval" });
    if (!check.ok) return reply(409, { status: "error", error: `approval refused: ${check.message}`, code: "approval_refused" });
    // Who decided, as for a chat's approvals: recorded once the decision is the one that counts.
    await audit(request.decision === "deny" ? "approval.denied" : "approval.approved", check.approval.approvalId, {
      tool: name,
      from: "try-it",
      ...(request.editedInput !== undefined ? { edited: true } : {}),
    });
    if (request.decision === "deny") {
      const reason = request.reason?.trim() || undefined;
      return reply(200, {
        status: "not-admitted",
        why: "denied",
        text: notAdmittedText(tool, request.input, reason ? { kind: "denied", reason } : { kind: "denied" }),
      });
    }
    if (request.editedInput !== undefined) {
      // The approval is spent on the request it was issued for; the edited arguments must be valid
      // and must not be what a deny rule refuses.
      const valid = await inputIssues(registered, tool.input, request.editedInput);
      if (!valid.ok)
        return reply(422, { status: "invalid", message: valid.issues.map((i) => `${i.path || "input"}: ${i.message}`).join("; "), issues: valid.issues });
      const verdict = await ruleFor(request.editedInput);
      if (verdict?.decision === "deny") return refused(verdict, request.editedInput);
      runInput = request.editedInput;
    }
  } else {
    const valid = await inputIssues(registered, tool.input, request.input ?? {});
    if (!valid.ok)
      return reply(422, { status: "invalid", message: valid.issues.map((i) => `${i.path || "input"}: ${i.message}`).join("; "), issues: valid.issues });
    const verdict = await ruleFor(valid.value);
    if (verdict?.decision === "deny") return refused(verdict, request.input);
    if (verdict?.decision !== "allow" && (verdict?.decision === "ask" || (await needsConfirmation(tool, valid.value, ctx)))) {
      const approval = await deps.approvals.issue(name, request.input, deps.settings.chat.approvalTimeoutSeconds);
      return reply(200, {
        status: "approval-required",
        approvalId: approval.approvalId,
        expiresAt: new Date(approval.expiresAt).toISOString(),
        toolName: name,
        sourcePackage: registered.sourcePackage,
        readonly: registered.readonly,
        summary: summaryLine(registered.description),
        input: request.input,
      });
    }
  }

  const result = await invoke(tool, runInput, ctx, { guardFile: deps.settings.aiAssistedGuardFile });
  return reply(200, {
    status: "done",
    text: result.text,
    output: result.output,
    isError: result.isError,
    durationMs: result.durationMs,
    madeChanges: result.madeChanges,
    timedOut: result.timedOut,
    ...(asked.length ? { elicitations: asked } : {}),
  });
}
