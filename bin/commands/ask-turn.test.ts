import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { UIMessage } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadRegistry } from "@/lib/server/runtime/registry";
import { turnSetup } from "@/lib/server/chat/turn-setup";
import { TIMEOUT_REASON } from "@/lib/chat/engine";
import { isToolPart } from "@/lib/chat/history";
import type { Decision } from "@/lib/chat/metadata";
import { createModelResolver } from "@/lib/chat/models";
import { createOfflineModel } from "@/lib/chat/offline-model";
import { settingsSchema } from "@/lib/settings/schema";
import { askTurn, type AskOutcome, type PendingCall } from "./ask-turn";

let root: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-ask-turn-"));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** One offline turn asking to `touch marker`, with the person's answer given by `decide`. */
async function touchMarker(decide: (call: PendingCall, controller: AbortController) => Promise<Decision>, toolMode: "native" | "text" = "native") {
  const settings = settingsSchema.parse({ sourceRoot: root, runsRoot: root, tools: { run_terminal_command: { enabled: true, allowedCommands: ["touch"] } } });
  // cwd is the empty temp folder, so no installed plugin joins the registry.
  const registry = await loadRegistry({ settings, cwd: root, log: () => {} });
  const controller = new AbortController();
  const asked: PendingCall[] = [];
  let n = 0;
  const outcome = await askTurn({
    turn: {
      ...turnSetup({
        settings,
        resolver: createModelResolver(settings),
        chatId: "ask-test",
        modelId: "offline/scripted",
        chatLlm: { type: "ref", ref: "offline" },
        isNewConversation: true,
      }),
      chatId: "ask-test",
      model: createOfflineModel(),
      toolMode,
      supervised: true,
      registry,
      grants: new Set(),
      signal: controller.signal,
      generateMessageId: () => `m${++n}`,
    },
    messages: [{ id: "u", role: "user", parts: [{ type: "text", text: "run `touch marker`" }] }],
    onChunk: () => {},
    decide: (call) => {
      asked.push(call);
      return decide(call, controller);
    },
  });
  return { outcome, asked, marker: fs.existsSync(path.join(root, "marker")) };
}

function toolPart(outcome: AskOutcome) {
  const part = outcome.messages.at(-1)?.parts.find(isToolPart);
  if (!part) throw new Error("no tool part in the answer");
  return part;
}

const lastText = (message: UIMessage | undefined) => message?.parts.findLast((p) => p.type === "text");
const at = "2026-01-01T00:00:00.000Z";

describe("askTurn", () => {
  it.each(["native", "text"] as const)("asks once, runs the approved call and resumes the same message (%s)", async (mode) => {
    const { outcome, asked, marker } = await touchMarker(async () => ({ by: "user", decision: "approved", at }), mode);
    expect(asked).toEqual([expect.objectContaining({ toolName: "run_terminal_command", sourcePackage: "toolroom", input: { command: "touch marker" } })]);
    expect(marker).toBe(true);
    expect(outcome).toMatchObject({ aborted: false, error: undefined });
    expect(outcome.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(toolPart(outcome)).toMatchObject({ state: "output-available", approval: { approved: true } });
    expect(outcome.messages.at(-1)?.metadata).toMatchObject({ calls: { [toolPart(outcome).toolCallId]: { decision: { by: "user", decision: "approved" } } } });
    expect(lastText(outcome.messages.at(-1))).toMatchObject({ text: expect.stringContaining("Exit code: 0") });
  });

  it.each([
    { decision: { by: "user", decision: "denied", reason: "not today", at }, reason: "not today" },
    { decision: { by: "timeout", decision: "timed-out", at }, reason: TIMEOUT_REASON },
  ] satisfies { decision: Decision; reason: string }[])("does not run a call answered $decision.decision", async ({ decision, reason }) => {
    const { outcome, marker } = await touchMarker(async () => decision);
    expect(marker).toBe(false);
    expect(toolPart(outcome)).toMatchObject({ state: "output-denied", approval: { approved: false, reason } });
    expect(outcome.messages.at(-1)?.metadata).toMatchObject({ calls: { [toolPart(outcome).toolCallId]: { decision } } });
    expect(lastText(outcome.messages.at(-1))).toMatchObject({ text: expect.stringContaining("not run") });
  });

  it("stops, with the call still pending, when the turn is aborted at the prompt", async () => {
    const { outcome, marker } = await touchMarker(async (_call, controller) => {
      controller.abort();
      throw new Error("aborted at the prompt");
    });
    expect(marker).toBe(false);
    expect(outcome.aborted).toBe(true);
    expect(toolPart(outcome)).toMatchObject({ state: "approval-requested" });
  });
});
