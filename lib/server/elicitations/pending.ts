import { randomUUID } from "node:crypto";
import { z } from "zod";
import { checkAnswers, elicitFields } from "@/lib/mcp/elicit-form";
import type { ElicitResult, ElicitSchema } from "@/lib/tools/types";
import { audit } from "@/lib/server/auth/audit";
import { canSee } from "@/lib/server/auth/ownership";

/** A question a running tool put to the person, as the browser fetches it. */
export interface PendingElicitation {
  id: string;
  /** Who may answer: a chat's id, or `try-it:<the page's call id>`. */
  scope: string;
  toolName: string;
  message: string;
  schema: ElicitSchema;
  issuedAt: string;
  expiresAt: string;
}

/** What happened to a question, kept for the call's record (newest last, bounded). */
export interface ElicitationRecord {
  id: string;
  scope: string;
  toolName: string;
  message: string;
  action: "accept" | "decline" | "cancel";
  decidedBy: "user" | "timeout" | "aborted";
  content?: Record<string, unknown>;
  decidedAt: string;
}

/** Whose question it is (the chat's owner, the try-it call's starter): to anyone else it does not exist. */
interface Owned {
  ownerId: string | null;
}

interface Waiting extends Owned {
  entry: PendingElicitation;
  settle(result: ElicitResult, decidedBy: ElicitationRecord["decidedBy"]): void;
}

const RECORDS_KEPT = 200;

// One store per process: the tool waits in the request that runs it, the answer comes in another
// request. Kept on globalThis so Next's separately bundled routes share it.
interface Store {
  waiting: Map<string, Waiting>;
  records: (Owned & { record: ElicitationRecord })[];
}
const store: Store = ((globalThis as { __toolroomElicitations?: Store }).__toolroomElicitations ??= { waiting: new Map(), records: [] });

/**
 * Puts a question to the person behind `scope` and waits for the answer (the tool's
 * `ctx.elicit`). Unanswered by the timeout, or the call cancelled: `cancel` (nobody agreed to anything).
 * `ownerId`: who alone may see and answer it on a server with sign-in (null: anyone).
 */
export function askPerson(
  scope: string,
  toolName: string,
  message: string,
  schema: ElicitSchema,
  options: { timeoutSeconds: number; ownerId: string | null; signal?: AbortSignal; onDecided?: (record: ElicitationRecord) => void },
): Promise<ElicitResult> {
  const now = Date.now();
  const entry: PendingElicitation = {
    id: randomUUID(),
    scope,
    toolName,
    message,
    schema,
    issuedAt: new Date(now).toISOString(),
    expiresAt: new Date(now + options.timeoutSeconds * 1000).toISOString(),
  };
  return new Promise((resolve) => {
    const timer = setTimeout(() => settle({ action: "cancel" }, "timeout"), options.timeoutSeconds * 1000);
    const onAbort = () => settle({ action: "cancel" }, "aborted");
    function settle(result: ElicitResult, decidedBy: ElicitationRecord["decidedBy"]) {
      if (!store.waiting.delete(entry.id)) return;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      const action = result.action === "not-admitted" ? "cancel" : result.action;
      const record: ElicitationRecord = {
        id: entry.id,
        scope,
        toolName,
        message,
        action,
        decidedBy,
        ...(result.action === "accept" ? { content: result.content } : {}),
        decidedAt: new Date().toISOString(),
      };
      store.records.push({ record, ownerId: options.ownerId });
      store.records.splice(0, Math.max(0, store.records.length - RECORDS_KEPT));
      options.onDecided?.(record);
      resolve(result);
    }
    store.waiting.set(entry.id, { entry, settle, ownerId: options.ownerId });
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The questions waiting in a scope that the request's person may see, oldest first. */
export function pendingIn(scope: string): PendingElicitation[] {
  return [...store.waiting.values()].filter((w) => w.entry.scope === scope && canSee(w)).map((w) => w.entry);
}

/** How a scope's questions (those the request's person may see) were answered, oldest first. */
export function recordsIn(scope: string): ElicitationRecord[] {
  return store.records.filter((r) => r.record.scope === scope && canSee(r)).map((r) => r.record);
}

export const elicitationAnswerSchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("accept"), content: z.record(z.string(), z.unknown()) }),
  z.object({ action: z.literal("decline") }),
  z.object({ action: z.literal("cancel") }),
]);

/**
 * The person's answer. The server is the authority: only a question it issued, for that scope, to
 * this person, still waiting, once; accepted content must fit the schema (else nothing is decided).
 * Who answered goes to the audit log, as an approval decision does.
 */
export async function answerElicitation(
  id: string,
  scope: string,
  body: unknown,
): Promise<{ ok: true } | { ok: false; status: 400 | 404 | 422; error: string; errors?: Record<string, string> }> {
  const parsed = elicitationAnswerSchema.safeParse(body);
  if (!parsed.success) return { ok: false, status: 400, error: "the answer must be {action: accept, content} or {action: decline | cancel}" };
  const waiting = store.waiting.get(id);
  if (!waiting || waiting.entry.scope !== scope || !canSee(waiting))
    return { ok: false, status: 404, error: "no such question is waiting (answered already, timed out, or not this chat's)" };
  const answer = parsed.data;
  if (answer.action === "accept") {
    const checked = checkAnswers(elicitFields(waiting.entry.schema), answer.content);
    if (!checked.ok) return { ok: false, status: 422, error: "the answer does not fit the form", errors: checked.errors };
    waiting.settle({ action: "accept", content: checked.content }, "user");
  } else waiting.settle({ action: answer.action }, "user");
  await audit(`elicitation.${answer.action}`, id, { tool: waiting.entry.toolName, scope });
  return { ok: true };
}
