import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadRegistry } from "@/lib/server/runtime/registry";
import { settingsRuleDecider } from "@/lib/server/approvals/settings-rules";
import { turnSetup } from "@/lib/server/chat/turn-setup";
import { isToolPart } from "@/lib/chat/history";
import { readMetadata } from "@/lib/chat/metadata";
import { createModelResolver } from "@/lib/chat/models";
import { createOfflineModel } from "@/lib/chat/offline-model";
import { settingsSchema, type Settings } from "@/lib/settings/schema";

type ApprovalRuleSettings = Settings["approvals"]["rules"][number];
import { askTurn } from "./ask-turn";

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-ask-rules-"));
  fs.writeFileSync(path.join(root, "notes.txt"), "marker-line\n");
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** One offline turn with these settings rules; nobody can be asked (unsupervised), so only a rule admits a confirming call. */
async function turn(text: string, rules: ApprovalRuleSettings[], toolMode: "native" | "text", supervised = false) {
  const settings = settingsSchema.parse({
    sourceRoot: root,
    runsRoot: root,
    tools: { run_terminal_command: { enabled: true, allowedCommands: ["touch"] } },
    approvals: { rules },
  });
  const registry = await loadRegistry({ settings, cwd: root, log: () => {} });
  let n = 0;
  const asked: string[] = [];
  const outcome = await askTurn({
    turn: {
      ...turnSetup({
        settings,
        resolver: createModelResolver(settings),
        chatId: "r",
        modelId: "offline/scripted",
        chatLlm: { type: "ref", ref: "offline" },
        isNewConversation: true,
      }),
      chatId: "r",
      model: createOfflineModel(),
      toolMode,
      supervised,
      registry,
      grants: new Set(),
      rules: settingsRuleDecider(settings),
      signal: new AbortController().signal,
      generateMessageId: () => `m${++n}`,
    },
    messages: [{ id: "u", role: "user", parts: [{ type: "text", text }] }],
    onChunk: () => {},
    decide: async (call) => {
      asked.push(call.toolName);
      return { by: "user", decision: "denied", at: new Date().toISOString() };
    },
  });
  const message = outcome.messages.at(-1)!;
  const part = message.parts.find(isToolPart)!;
  const text_ = message.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
  return { part, decision: readMetadata(message.metadata).calls?.[part.toolCallId]?.decision, text: text_, asked };
}

describe.each(["native", "text"] as const)("approval rules in a chat turn (%s)", (mode) => {
  it("an allow rule admits a confirming call even where nobody could be asked, and records the rule", async () => {
    const { part, decision, asked } = await turn(
      "run `touch made`",
      [{ name: "touch ok", tool: "run_terminal_command", args: { command: "^touch " }, decision: "allow" }],
      mode,
    );
    expect(fs.existsSync(path.join(root, "made"))).toBe(true);
    expect(asked).toEqual([]);
    expect(part.state).toBe("output-available");
    expect(decision).toMatchObject({
      by: "rule",
      decision: "approved",
      reason: 'allowed by settings rule "touch ok"',
      rule: { origin: "settings", name: "touch ok" },
    });
  });

  it("a deny rule blocks a tool that never asks, and the model reads the rule's reason", async () => {
    const { part, decision, text } = await turn("read notes.txt", [{ tool: "read_file", decision: "deny", reason: "notes are private" }], mode, true);
    expect(part.state).toBe("output-denied");
    expect(decision).toMatchObject({ by: "rule", decision: "denied", rule: { origin: "settings" } });
    expect(text).toContain("notes are private");
    expect(text).not.toContain("marker-line");
  });

  it("an ask rule makes a tool that never asks wait for a person", async () => {
    const { part, asked } = await turn("read notes.txt", [{ tool: "read_*", decision: "ask" }], mode, true);
    expect(asked).toEqual(["read_file"]);
    expect(part.state).toBe("output-denied");
  });
});
