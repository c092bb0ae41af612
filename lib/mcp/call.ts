import { ErrorCode, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Decision } from "@/lib/tools/decision";
import { ruleCallOf, ruleDecisionText, type RuleDecider } from "@/lib/tools/approval-rules";
import { needsConfirmation, notAdmittedText } from "@/lib/tools/confirm";
import { invoke } from "@/lib/tools/invoke";
import { validateInput } from "@/lib/tools/schema";
import type { Registry, RegisteredTool } from "@/lib/tools/registry-types";
import type { NotAdmittedReason, ToolContext } from "@/lib/tools/types";
import type { ElicitationRecord, McpAudit } from "./audit";

/** What the client's person answered, why nobody could be asked, or that the client cancelled the call meanwhile. */
export type ConfirmAnswer = "accept" | "decline" | "cancel" | "timeout" | "unsupported" | "failed" | "aborted";

export interface McpCallDeps {
  registry: Registry;
  contextFor(toolName: string, signal: AbortSignal): ToolContext;
  /** Asks the connected client (MCP elicitation) whether this call may run. */
  confirm(tool: RegisteredTool, input: unknown, signal: AbortSignal): Promise<ConfirmAnswer>;
  /** Approval rules, decided before the tool's own confirmation as in chat. */
  rules?: RuleDecider;
  guardFile?: string;
  audit?: McpAudit;
  client(): string;
  sessionKey: string;
  log?: (message: string) => void;
  now?: () => Date;
  /** What the tool asked the person during this call (ctx.elicit), recorded with it. */
  elicitations?: () => ElicitationRecord[];
}

/**
 * A JSON-RPC error answered to the client. Not the SDK's McpError: its message already reads
 * "MCP error -32602: …", the server sends that message as is, and the client's McpError prefixes
 * it again ("MCP error -32602: MCP error -32602: …").
 */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A tools/call from an MCP client: the same `invoke` as chat, try-it and the CLI; a confirming
 * call runs only on the client's explicit accept. An unknown tool is a protocol error (the spec's
 * -32602); everything that happens inside the tool is a result, `isError` when it starts `Error:`
 * or when it did not run (denied, timed out, not admitted: the client's model must not read it as output).
 */
export async function callTool(deps: McpCallDeps, name: string, args: unknown, signal: AbortSignal): Promise<CallToolResult> {
  const registered = deps.registry.get(name);
  if (!registered || !registered.enabled) throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  const now = deps.now ?? (() => new Date());
  const startedAt = now();
  const input = args ?? {};
  const ctx = deps.contextFor(name, signal);
  const tool = registered.resolve(ctx);

  // Arguments the tool's schema refuses are the spec's tool input error: invoke answers them as an
  // isError result the model can correct, and no rule or person is asked about a call that cannot run.
  const valid = (await validateInput(tool.input, input)).ok;
  let decision: Decision | undefined;
  const verdict = valid ? await deps.rules?.(ruleCallOf(registered, input, name)) : undefined;
  if (verdict && verdict.decision !== "ask") {
    decision = {
      by: "rule",
      decision: verdict.decision === "allow" ? "approved" : "denied",
      reason: ruleDecisionText(verdict),
      rule: verdict.rule,
      at: now().toISOString(),
    };
    if (verdict.decision === "deny") {
      const text = notAdmittedText(tool, input, { kind: "denied", reason: verdict.reason ?? decision.reason });
      await record(deps, { tool: registered, input, text, isError: false, madeChanges: false, durationMs: null, decision, startedAt });
      return { content: [{ type: "text", text }], _meta: { "toolroom/decision": decision } };
    }
  } else if (valid && (verdict?.decision === "ask" || (await needsConfirmation(tool, input, ctx)))) {
    const answer = await deps.confirm(registered, input, signal);
    decision = decisionOf(answer, now());
    const why = notAdmittedReason(answer);
    if (why) {
      const text = notAdmittedText(tool, input, why);
      await record(deps, {
        tool: registered,
        input,
        text,
        isError: true,
        madeChanges: false,
        durationMs: null,
        decision,
        ...(answer === "aborted" ? { cancelled: true } : {}),
        startedAt,
      });
      return { content: [{ type: "text", text }], isError: true, _meta: { "toolroom/decision": decision } };
    }
  }

  const result = await invoke(tool, input, ctx, { guardFile: deps.guardFile });
  await record(deps, {
    tool: registered,
    input,
    text: result.text,
    isError: result.isError,
    madeChanges: result.madeChanges,
    durationMs: Math.round(result.durationMs),
    decision,
    // The client's notifications/cancelled aborts the call's signal; nobody reads the answer.
    ...(signal.aborted ? { cancelled: true } : {}),
    startedAt,
  });
  return {
    // A tool's rich content is what an MCP client shows; a failed call is its error text.
    content: result.content && !result.isError ? result.content : [{ type: "text", text: result.text }],
    isError: result.isError,
    ...(decision ? { _meta: { "toolroom/decision": decision } } : {}),
  };
}

function decisionOf(answer: ConfirmAnswer, at: Date): Decision {
  const iso = at.toISOString();
  switch (answer) {
    case "accept":
      return { by: "user", decision: "approved", at: iso };
    case "decline":
      return { by: "user", decision: "denied", reason: "declined in the MCP client", at: iso };
    case "cancel":
      return { by: "user", decision: "denied", reason: "cancelled in the MCP client", at: iso };
    case "timeout":
      return { by: "timeout", decision: "timed-out", at: iso };
    case "unsupported":
      return { by: "unsupervised", decision: "not-admitted", reason: "the MCP client cannot ask a person (no elicitation)", at: iso };
    case "failed":
      return { by: "unsupervised", decision: "not-admitted", reason: "the MCP client failed to ask a person", at: iso };
    case "aborted":
      return { by: "user", decision: "denied", reason: "the MCP client cancelled the call", at: iso };
  }
}

function notAdmittedReason(answer: ConfirmAnswer): NotAdmittedReason | null {
  switch (answer) {
    case "accept":
      return null;
    case "decline":
      return { kind: "denied", reason: "declined in the MCP client" };
    case "cancel":
      return { kind: "denied", reason: "cancelled in the MCP client" };
    case "timeout":
      return { kind: "timed-out" };
    case "unsupported":
    case "failed":
      return { kind: "unsupervised" };
    case "aborted":
      return { kind: "denied", reason: "the MCP client cancelled the call" };
  }
}

async function record(deps: McpCallDeps, call: Omit<Parameters<McpAudit["record"]>[0], "client" | "sessionKey">): Promise<void> {
  if (!deps.audit) return;
  try {
    const elicitations = deps.elicitations?.() ?? [];
    await deps.audit.record({ ...call, ...(elicitations.length ? { elicitations } : {}), client: deps.client(), sessionKey: deps.sessionKey });
  } catch (error) {
    // The call already happened; losing its audit line must not turn a result into a failure.
    (deps.log ?? console.error)(`toolroom mcp: could not record the call of ${call.tool.name}: ${(error as Error).message}`);
  }
}
