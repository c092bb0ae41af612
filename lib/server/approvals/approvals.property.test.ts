// The approvals property test: 200 seeded sequences (50 on PostgreSQL) against the real server code. Long because the
// action model, the ledger check and the coverage guard must be read together to trust it.
import fs from "node:fs";
import path from "node:path";
import type { UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { post, readAssistantMessage, startServer, useTempDatabase } from "@/lib/testing/approvals-harness";
import { nextAction, startSequence, TOOLS, type Action, type Decision, type Sequence, type ToolName } from "@/lib/testing/approvals-generator";

/**
 * Issue #6: over random sequences of calls, approvals, denials, timeouts and reloads, a confirming
 * tool runs exactly once per accepted approval plus once per grant admission, and the stored
 * history stays well-formed. Issue #20: plus once per rule admission; an approval with edited
 * arguments runs exactly the edited input, once; a call a deny rule matches never runs. Reproduce a failure with the seed it prints:
 *   APPROVALS_PROPERTY_SEED=<seed> APPROVALS_PROPERTY_RUNS=1 npx vitest run lib/server/approvals/approvals.property.test.ts
 */
// On PostgreSQL (the storage-pg project) the first 50 of the same seeds: the sequences are the same
// code; what the second engine adds is its transactions and locks, which 50 exercise, at a quarter of the time.
const DEFAULT_RUNS = process.env.TOOLROOM_TEST_ENGINE === "postgresql" ? 50 : 200;
const DEFAULT_SEED = 62_024;
const RUNS = Number(process.env.APPROVALS_PROPERTY_RUNS ?? DEFAULT_RUNS);
const FIRST_SEED = Number(process.env.APPROVALS_PROPERTY_SEED ?? DEFAULT_SEED);
const TIMEOUT_SECONDS = 300;

// Several confirming calls in one step are where multi-response bugs live; the offline model makes one.
vi.mock("@/lib/chat/offline-model", async (importOriginal) => {
  const offline = await importOriginal<typeof import("@/lib/chat/offline-model")>();
  const { withParallelCalls } = await import("@/lib/testing/approvals-harness");
  return {
    ...offline,
    createOfflineModel: (options?: Parameters<typeof offline.createOfflineModel>[0]) => withParallelCalls(offline.createOfflineModel(options)),
  };
});

const dir = useTempDatabase("toolroom-approvals-property-");
// Every execution appends its id: a file counts across module instances, and shows duplicates.
const ledger = path.join(dir, "ledger.txt");
const pluginDir = path.join(dir, "plugins", "toolroom-plugin-ledger");
fs.mkdirSync(pluginDir, { recursive: true });
fs.writeFileSync(
  path.join(pluginDir, "package.json"),
  JSON.stringify({
    name: "toolroom-plugin-ledger",
    version: "1.0.0",
    type: "module",
    toolroom: { tools: Object.fromEntries(TOOLS.map((name) => [name, `./tools.js#${name}`])) },
  }),
);
const toolSource = (name: ToolName) => `export const ${name} = {
  name: "${name}",
  description: "Writes one line to the test's ledger. Args: id.",
  input: { jsonSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false } },
  readonly: false,
  confirm: { evaluate: () => true, notAdmitted: ({ id }, why) => \`Not run: ${name} \${id} was \${why.kind}.\` },
  execute: ({ id }) => {
    fs.appendFileSync(${JSON.stringify(ledger)}, id + "\\n");
    return \`${name} \${id} done\`;
  },
};
`;
fs.writeFileSync(path.join(pluginDir, "tools.js"), `import fs from "node:fs";\n${TOOLS.map(toolSource).join("")}`);

let chatView: typeof import("@/lib/server/chat/chat-view");
let queries: typeof import("@/lib/db/queries");
let approvals: typeof import("./approvals");
let patchChat: typeof import("@/app/api/chats/[id]/route").PATCH;
let revokeGrant: typeof import("@/app/api/chats/[id]/grants/[tool]/route").DELETE;
let saveRule: typeof import("@/app/api/approval-rules/route").POST;

// Only Date is faked: approval expiry reads the clock, while streams and SQLite keep real timers.
let now = Date.UTC(2030, 0, 1);

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ["Date"], now });
  await startServer({
    TOOLROOM_SOURCEROOT: dir,
    TOOLROOM_PLUGINS__PATHS: JSON.stringify([path.dirname(pluginDir)]),
    TOOLROOM_CHAT__APPROVALTIMEOUTSECONDS: String(TIMEOUT_SECONDS),
  });
  chatView = await import("@/lib/server/chat/chat-view");
  queries = await import("@/lib/db/queries");
  approvals = await import("./approvals");
  patchChat = (await import("@/app/api/chats/[id]/route")).PATCH;
  revokeGrant = (await import("@/app/api/chats/[id]/grants/[tool]/route")).DELETE;
  saveRule = (await import("@/app/api/approval-rules/route")).POST;
}, 60_000);

afterAll(() => {
  vi.useRealTimers();
});

type ToolPart = { type: string; toolCallId: string; state: string; input?: { id?: string }; approval?: { id: string; approved?: boolean; reason?: string } };
const toolParts = (message: UIMessage | undefined) => (message?.parts ?? []).filter((p) => TOOLS.some((t) => p.type === `tool-${t}`)) as unknown as ToolPart[];
const requested = (message: UIMessage | undefined) => toolParts(message).filter((p) => p.state === "approval-requested");
const sorted = (items: readonly (string | undefined)[]) => [...items].sort();

/** The test's model of the server's state for one chat (model-based testing; not the language model). */
interface Model {
  supervised: boolean;
  granted: Set<ToolName>;
  /** Approvals the server is waiting for; all in the latest assistant message. */
  pending: { approvalId: string; callId: string; tool: ToolName; expiresAt: number }[];
  /** Approvals no longer pending, and whether a person decided them or the clock did. */
  closed: Map<string, "decided" | "expired">;
  /** Ids of the calls that must have run: accepted approvals plus grant admissions plus rule admissions (edited: the edited id). */
  ran: string[];
  /** This chat's UI rules: the first saved for a tool wins (first match, oldest first). */
  ruled: Map<ToolName, "allow" | "deny">;
  latestAssistantId?: string;
}

/** The browser's copy: the last assistant message as streamed (or reloaded), and its accepted answers. */
interface Client {
  assistant?: UIMessage;
  accepted: { body: Record<string, unknown>; responses: Sent[] }[];
}

/** One approval response as sent; `edited` when its arguments differ from the request's; `editedTo` when the dialog's edit rides beside it. */
interface Sent {
  approvalId: string;
  edited: boolean;
  editedTo?: { id: string };
}

/** The route's error code, or "accepted" when the server took the request (and streamed an answer). */
async function verdict(response: Response): Promise<string> {
  if (response.ok) return "accepted";
  return ((await response.json()) as { code?: string }).code ?? `status ${response.status}`;
}

function advance(seconds: number) {
  now += seconds * 1000;
  vi.setSystemTime(now);
}

/** Every request sweeps first (a reload does not): a pending approval at or past its expiry times out. */
function sweepModel(model: Model): number {
  const due = model.pending.filter((p) => now >= p.expiresAt);
  for (const p of due) model.closed.set(p.approvalId, "expired");
  model.pending = model.pending.filter((p) => now < p.expiresAt);
  return due.length;
}

function ledgerFor(seed: number): string[] {
  const lines = fs.existsSync(ledger) ? fs.readFileSync(ledger, "utf8").split("\n") : [];
  return lines.filter((line) => line.startsWith(`s${seed}-`));
}

/**
 * What the server must answer to a message of approval responses, from the model alone: the first
 * bad response decides, and nothing is decided unless every pending approval is answered validly.
 */
function predictAnswer(model: Model, messageId: string, responses: readonly Sent[]): string {
  if (messageId !== model.latestAssistantId) return "stale_message";
  for (const response of responses) {
    const pending = model.pending.find((p) => p.approvalId === response.approvalId);
    if (pending) {
      if (response.edited) return "edited_input";
      // The rules see edited arguments too: a deny rule saved while the dialog was open refuses the edit.
      if (response.editedTo && model.ruled.get(pending.tool) === "deny") return "denied_by_rule";
      continue;
    }
    const closed = model.closed.get(response.approvalId);
    return closed === "expired" ? "expired_approval" : closed === "decided" ? "replayed_approval" : "unknown_approval";
  }
  const answered = new Set(responses.map((r) => r.approvalId));
  return model.pending.every((p) => answered.has(p.approvalId)) ? "accepted" : "incomplete_decision";
}

/**
 * Outcomes the 200 default sequences must reach at least once, so a generator change cannot quietly
 * make the property vacuous (e.g. never granting, never expiring, never answering two at once).
 */
const MUST_COVER = [
  "call: asks",
  "call: asks + asks",
  "call: asks + runs",
  "call: runs",
  "call: not admitted",
  "call: not admitted despite a grant",
  "call: pending_approval",
  "answer: accepted",
  "answer: accepted (2 at once)",
  "answer: incomplete_decision",
  "answer: expired_approval",
  "decided: approve",
  "decided: approve+grant",
  "decided: deny",
  "decided: deny+grant",
  "edit: edited_input",
  "edit: edited_input (2 of 2)",
  "forge: unknown_approval (2 of 2)",
  "replay: replayed_approval",
  "replay: stale_message",
  "sweep: 1",
  "call: runs by rule",
  "call: denied by rule",
  "approveEdited: accepted",
  "approveEdited: accepted (2 at once)",
  "rule: allow",
  "rule: deny",
];

async function runSequence(sequence: Sequence, log: string[], seen: Set<string>): Promise<void> {
  const { seed } = sequence;
  const chatId = `prop-${seed}`;
  const model: Model = { supervised: sequence.supervised, granted: new Set(), pending: [], closed: new Map(), ran: [], ruled: new Map() };
  const client: Client = { accepted: [] };
  let calls = 0;

  /** Sends answers to the dialogs on screen; the server's verdict and the tool's runs are predicted first. */
  const respond = async (answers: { part: ToolPart; decision: Decision; edit?: boolean; forge?: boolean; editTo?: boolean }[]): Promise<string> => {
    if (!client.assistant || answers.length === 0) return "skipped, no approval on screen";
    const sent = answers.map(({ part, decision, edit, forge, editTo }) => ({
      part,
      decision,
      approvalId: forge ? `aprv_forged_${seed}_${calls}` : part.approval!.id,
      input: edit ? { id: `${part.input?.id ?? ""}-edited` } : part.input,
      edited: edit === true,
      ...(editTo ? { editedTo: { id: `${part.input?.id ?? ""}-e` } } : {}),
    }));
    const message = {
      ...client.assistant,
      parts: client.assistant.parts.map((p) => {
        const answer = sent.find((a) => a.part === (p as unknown as ToolPart));
        if (!answer) return p;
        const approval = { id: answer.approvalId, approved: answer.decision.approved, ...(answer.decision.reason ? { reason: answer.decision.reason } : {}) };
        return { ...answer.part, state: "approval-responded", input: answer.input, approval };
      }),
    } as UIMessage;
    const body = {
      id: chatId,
      message,
      grantApprovalIds: sent.filter((a) => a.decision.grant).map((a) => a.approvalId),
      editedInputs: Object.fromEntries(sent.flatMap((a) => (a.editedTo ? [[a.approvalId, a.editedTo]] : []))),
    };

    sweepModel(model);
    const expected = predictAnswer(model, message.id, sent);
    const response = await post(body);
    expect(await verdict(response), "the server's verdict on the approval responses").toBe(expected);
    if (expected !== "accepted") return expected;
    for (const { approvalId, decision, editedTo } of sent) {
      const pending = model.pending.find((p) => p.approvalId === approvalId)!;
      model.closed.set(approvalId, "decided");
      // An edited approval runs the edited input, and only it.
      if (decision.approved) model.ran.push(editedTo?.id ?? pending.callId);
      if (decision.approved && decision.grant) model.granted.add(pending.tool);
      seen.add(`decided: ${decision.approved ? "approve" : "deny"}${decision.grant ? "+grant" : ""}`);
    }
    model.pending = [];
    // The client's copy is built on a clone: readUIMessageStream updates the message it is given.
    client.assistant = await readAssistantMessage(response, structuredClone(message));
    client.accepted.push({ body, responses: sent });
    for (const { approvalId, decision, editedTo } of sent) {
      const answered = toolParts(client.assistant).find((p) => p.approval?.id === approvalId);
      expect(answered?.state, "an answered call's state as the client sees it").toBe(decision.approved ? "output-available" : "output-denied");
      if (editedTo) {
        const meta = (client.assistant.metadata as { calls?: Record<string, { edited?: unknown }> } | undefined)?.calls?.[answered!.toolCallId];
        expect(meta?.edited, "an edited call as the client sees it: both versions").toEqual({ proposed: answered?.input, input: editedTo });
      }
    }
    return sent.length > 1 ? `accepted (${sent.length} at once)` : "accepted";
  };

  /** Sends a message asking for these calls; returns each call's fate, in order. */
  const call = async (tools: ToolName[]): Promise<string> => {
    const ids = tools.map(() => `s${seed}-c${++calls}`);
    sweepModel(model);
    const text = tools.map((tool, i) => `${tool} ${JSON.stringify({ id: ids[i] })}`).join(" ");
    const response = await post({
      id: chatId,
      message: { id: `${chatId}-u${calls}`, role: "user", parts: [{ type: "text", text }] },
      supervised: sequence.supervised,
    });
    expect(await verdict(response), "a new message, with or without an approval pending").toBe(model.pending.length ? "pending_approval" : "accepted");
    if (model.pending.length) return "pending_approval";
    client.assistant = await readAssistantMessage(response);
    model.latestAssistantId = client.assistant.id;
    const parts = toolParts(client.assistant);
    expect(
      parts.map((p) => p.input?.id),
      "the model made these calls, in one step",
    ).toEqual(ids);
    const fates = tools.map((tool, i) => {
      const part = parts[i]!;
      // Rules decide before supervision and grants: allow runs without a dialog, deny never runs.
      const ruled = model.ruled.get(tool);
      if (ruled === "deny") {
        expect(part.state, "a deny rule: refused without a dialog").toBe("output-denied");
        return "denied by rule";
      }
      if (ruled === "allow") {
        expect(part.state, "an allow rule: run without a dialog").toBe("output-available");
        model.ran.push(ids[i]!);
        return model.supervised ? "runs by rule" : "runs by rule (unsupervised)";
      }
      if (!model.supervised) {
        expect(part.state, "unsupervised: not admitted").toBe("output-denied");
        return model.granted.has(tool) ? "not admitted despite a grant" : "not admitted";
      }
      if (model.granted.has(tool)) {
        expect(part.state, "granted: admitted without asking").toBe("output-available");
        model.ran.push(ids[i]!);
        return "runs";
      }
      expect(part.state, "supervised: waits for a person").toBe("approval-requested");
      model.pending.push({ approvalId: part.approval!.id, callId: ids[i]!, tool, expiresAt: now + TIMEOUT_SECONDS * 1000 });
      return "asks";
    });
    return fates.sort().join(" + ");
  };

  /** Performs one action against the API, checks the immediate answer, and names the outcome. */
  const perform = async (action: Action): Promise<string> => {
    const shown = requested(client.assistant);
    const target = "target" in action ? Math.floor(action.target * shown.length) : -1;
    const position = shown.length > 1 ? ` (${target + 1} of ${shown.length})` : "";
    switch (action.kind) {
      case "call":
        return call(action.tools);
      case "answer": {
        const answered = action.partial && shown.length > 1 ? shown.slice(0, -1) : shown;
        return respond(answered.map((part, i) => ({ part, decision: action.decisions[i % action.decisions.length]! })));
      }
      case "edit":
        return `${await respond(shown.map((part, i) => ({ part, decision: { approved: true, grant: false }, edit: i === target })))}${position}`;
      case "forge":
        return `${await respond(shown.map((part, i) => ({ part, decision: { approved: true, grant: false }, forge: i === target })))}${position}`;
      case "approveEdited":
        return respond(shown.map((part, i) => ({ part, decision: { approved: true, grant: false }, editTo: i === target })));
      case "rule": {
        const response = await saveRule(
          new Request("http://localhost/", {
            method: "POST",
            // A whole-tool allow is broad: the person confirmed it in the form.
            body: JSON.stringify({ tool: action.tool, decision: action.decision, reason: "property", chatId, confirmBroad: true }),
          }),
        );
        expect(response.status, "saving a rule for this chat").toBe(201);
        if (!model.ruled.has(action.tool)) model.ruled.set(action.tool, action.decision);
        return action.decision;
      }
      case "wait":
        advance(action.seconds);
        return "clock moved";
      case "sweep": {
        const expected = sweepModel(model);
        expect(await approvals.sweepExpiredApprovals(), "approvals the background sweep times out").toBe(expected);
        return String(expected);
      }
      case "reload": {
        // Reading writes nothing: an approval past its deadline stays pending until the sweeper or
        // the next request times it out, but the page already shows it timed out.
        const detail = await chatView.chatDetail(chatId);
        client.assistant = detail?.messages.findLast((m) => m.role === "assistant");
        expect(sorted(detail?.grants ?? []), "grants as the page shows them").toEqual(sorted([...model.granted]));
        const offered = requested(client.assistant).map((p) => p.approval?.id);
        expect(sorted(offered), "approvals the page offers").toEqual(sorted(model.pending.filter((p) => now < p.expiresAt).map((p) => p.approvalId)));
        return "reloaded";
      }
      case "replay": {
        const old = client.accepted[Math.floor(action.pick * client.accepted.length)];
        if (!old) return "skipped, nothing answered yet";
        sweepModel(model);
        const expected = predictAnswer(model, (old.body.message as UIMessage).id, old.responses);
        expect(await verdict(await post(old.body)), "a replayed approval response").toBe(expected);
        return expected;
      }
      case "supervise": {
        const response = await patchChat(new Request("http://localhost/", { method: "PATCH", body: JSON.stringify({ supervised: !model.supervised }) }), {
          params: Promise.resolve({ id: chatId }),
        });
        expect(response.status).toBe(200);
        model.supervised = !model.supervised;
        return model.supervised ? "supervised" : "unsupervised";
      }
      case "revoke": {
        const response = await revokeGrant(new Request("http://localhost/", { method: "DELETE" }), {
          params: Promise.resolve({ id: chatId, tool: action.tool }),
        });
        expect(response.status).toBe(204);
        model.granted.delete(action.tool);
        return "revoked";
      }
    }
  };

  /** After every step: the tools ran exactly as the model says, and only pending calls lack a result. */
  const check = async (settled: boolean) => {
    expect(sorted(ledgerFor(seed)), "executions of the confirming tools (accepted approvals + grant admissions + rule admissions)").toEqual(sorted(model.ran));
    const stored = (await queries.loadMessages(chatId)).flatMap((m) => toolParts(m));
    const waiting = sorted(stored.filter((p) => p.state === "approval-requested").map((p) => p.approval?.id));
    expect(waiting, "stored calls still waiting for a person").toEqual(sorted(model.pending.map((p) => p.approvalId)));
    expect(sorted((await queries.pendingApprovals(chatId)).map((r) => r.approvalId ?? undefined)), "pending approvals in the database").toEqual(waiting);
    const finished = ["output-available", "output-error", "output-denied"];
    for (const part of stored) expect(settled ? finished : [...finished, "approval-requested"], `state of stored call ${part.input?.id}`).toContain(part.state);
    const results = stored.filter((p) => p.state === "output-available").map((p) => p.input?.id);
    expect(sorted(results), "calls whose stored result says they ran").toEqual(sorted(model.ran));
  };

  for (let step = 0; step <= sequence.length; step++) {
    // The chat exists from its first message on; everything after is drawn from the seed.
    const screen = { approvalsShown: requested(client.assistant).length, granted: model.granted.size, answered: client.accepted.length };
    const action: Action = step === 0 ? { kind: "call", tools: ["tally"] } : nextAction(sequence.random, screen, TIMEOUT_SECONDS);
    log.push(JSON.stringify(action));
    const outcome = await perform(action);
    log[log.length - 1] += ` -> ${outcome}`;
    seen.add(`${action.kind}: ${outcome}`);
    await check(false);
  }
  // Settle: once every approval has expired and the sweeper has run, each stored call has a result.
  log.push("settle: wait past expiry, sweep, reload");
  advance(TIMEOUT_SECONDS + 1);
  await perform({ kind: "sweep" });
  await perform({ kind: "reload" });
  await check(true);
}

describe("approvals property (issue #6)", () => {
  it(`over ${RUNS} random sequences, the confirming tools run once per accepted approval or grant admission`, async () => {
    const seen = new Set<string>();
    for (let i = 0; i < RUNS; i++) {
      const sequence = startSequence(FIRST_SEED + i);
      const log: string[] = [];
      try {
        await runSequence(sequence, log, seen);
      } catch (error) {
        const steps = log.map((step, n) => `  ${n + 1}. ${step}${n === log.length - 1 ? "   <- failed during or right after this step" : ""}`).join("\n");
        throw new Error(
          `approvals property failed: seed ${sequence.seed} (chat started ${sequence.supervised ? "supervised" : "unsupervised"})\n${steps}\nreproduce: APPROVALS_PROPERTY_SEED=${sequence.seed} APPROVALS_PROPERTY_RUNS=1 npx vitest run lib/server/approvals/approvals.property.test.ts\n${(error as Error).message}`,
          { cause: error },
        );
      }
    }
    // Only the 200 default sequences are enough to promise coverage; a one-seed reproduction is not.
    if (RUNS === 200 && FIRST_SEED === DEFAULT_SEED)
      expect(
        MUST_COVER.filter((outcome) => !seen.has(outcome)),
        "outcomes no sequence reached",
      ).toEqual([]);
  }, 300_000);
});
