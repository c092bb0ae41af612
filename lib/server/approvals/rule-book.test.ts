import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { RuleCall } from "@/lib/tools/approval-rules";
import { startServer, useTempDatabase } from "@/lib/testing/approvals-harness";

useTempDatabase("toolroom-rule-book-");

let book: typeof import("./rule-book");
let admin: typeof import("./rule-admin");
let queries: typeof import("@/lib/db/queries");
let settings: import("@/lib/settings/schema").Settings;

const SETTINGS_RULES = [
  { tool: "run_terminal_command", args: { command: "^(ls|git status)\\b" }, decision: "allow", reason: "listing is harmless" },
  { tool: "reset_*", decision: "deny", reason: "the fabric is shared" },
  { source: "mcp:*", readonly: false, decision: "ask" },
];

beforeAll(async () => {
  await startServer({
    TOOLROOM_APPROVALS__RULES: JSON.stringify(SETTINGS_RULES),
    // sample_save_note, a tool that asks for confirmation, for the broad-rule checks.
    TOOLROOM_PLUGINS__PATHS: JSON.stringify([path.resolve("examples/plugins/toolroom-plugin-sample")]),
  });
  book = await import("./rule-book");
  admin = await import("./rule-admin");
  queries = await import("@/lib/db/queries");
  settings = (await import("@/lib/settings")).getSettings();
  for (const id of ["chat-a", "chat-b"]) await queries.createChat({ id, title: id, modelRef: "offline", toolMode: "native", supervised: true });
}, 60_000);

const call = (over: Partial<RuleCall> = {}): RuleCall => ({
  toolName: "reset_fabric",
  sourcePackage: "fabric-tools",
  origin: "plugin",
  readonly: false,
  input: {},
  ...over,
});
const decide = (chatId: string | undefined, c: RuleCall) => book.ruleDecider(settings, chatId)(c);

describe("approval rules: precedence and scopes", () => {
  // Before: a decider read the rules once and kept them for its turn, so a rule saved meanwhile (on
  // this instance or another one sharing the store) did not decide the turn's later calls.
  it("a rule saved between two decisions of one turn's decider decides the second", async () => {
    const decider = book.ruleDecider(settings, "chat-a");
    const probe = call({ toolName: "probe_rule_cache", sourcePackage: "probe-tools" });
    const before = await decider(probe);
    const rule = await admin.saveNewRule({ tool: "probe_rule_cache", decision: "deny", reason: "saved meanwhile" });
    expect(before?.reason).not.toBe("saved meanwhile");
    expect((await decider(probe))?.reason).toBe("saved meanwhile");
    await admin.removeRule(rule.id);
  });

  it("a rule saved from the UI never overrides a settings deny, whatever its scope", async () => {
    await admin.saveNewRule({ tool: "reset_fabric", decision: "allow", chatId: "chat-a" });
    await admin.saveNewRule({ tool: "*", decision: "allow", confirmBroad: true });
    const verdict = await decide("chat-a", call());
    expect(verdict?.decision).toBe("deny");
    expect(verdict?.rule.origin).toBe("settings");
    expect(verdict?.reason).toBe("the fabric is shared");
  });

  it("a settings allow applies only where its argument pattern matches", async () => {
    const shell = { toolName: "run_terminal_command", sourcePackage: "toolroom", origin: "builtin" as const };
    expect((await decide(undefined, call({ ...shell, input: { command: "git status" } })))?.rule.origin).toBe("settings");
    // Not matching the settings rule, it falls through to the UI's "everywhere" allow.
    expect((await decide(undefined, call({ ...shell, input: { command: "rm -rf x" } })))?.rule.origin).toBe("ui");
  });

  it("a this-chat rule applies in its chat only, and outranks the everywhere rules", async () => {
    const rule = await admin.saveNewRule({ tool: "sample_save_note", decision: "deny", reason: "not here", chatId: "chat-b" });
    expect((await decide("chat-b", call({ toolName: "sample_save_note" })))?.decision).toBe("deny");
    expect((await decide("chat-a", call({ toolName: "sample_save_note" })))?.decision).toBe("allow");
    expect((await decide(undefined, call({ toolName: "sample_save_note" })))?.rule.key).not.toBe(`ui:${rule.id}`);
  });

  it("a disabled rule does not match; a deleted one is gone with its count", async () => {
    const rule = await admin.saveNewRule({ tool: "tally", decision: "deny", chatId: "chat-a" });
    expect((await decide("chat-a", call({ toolName: "tally" })))?.rule.key).toBe(`ui:${rule.id}`);
    await admin.changeRule(rule.id, { enabled: false });
    expect((await decide("chat-a", call({ toolName: "tally" })))?.rule.key).not.toBe(`ui:${rule.id}`);
    const views = await admin.listRuleViews();
    expect(views.find((v) => v.id === rule.id)).toMatchObject({ enabled: false, matchCount: 1 });
    await admin.removeRule(rule.id);
    expect((await admin.listRuleViews()).some((v) => v.id === rule.id)).toBe(false);
    expect((await queries.listRuleHits()).some((h) => h.key === `ui:${rule.id}`)).toBe(false);
  });

  it("lists settings rules first, read-only with their source, and counts every match", async () => {
    const views = await admin.listRuleViews();
    expect(views.slice(0, 3).map((v) => [v.origin, v.decision, v.file])).toEqual([
      ["settings", "allow", "TOOLROOM_APPROVALS__RULES"],
      ["settings", "deny", "TOOLROOM_APPROVALS__RULES"],
      ["settings", "ask", "TOOLROOM_APPROVALS__RULES"],
    ]);
    expect(views[1]?.matchCount).toBeGreaterThanOrEqual(1);
    expect(views[1]?.lastMatchedAt).not.toBeNull();
    expect(views.slice(3).every((v) => v.origin === "ui" && v.id)).toBe(true);
  });

  it("refuses a rule whose pattern could not run in linear time, naming the field", async () => {
    await expect(admin.saveNewRule({ tool: "x", args: { command: "(a)\\1" }, decision: "deny" })).rejects.toMatchObject({ code: "invalid_rule" });
    await expect(admin.saveNewRule({ tool: "x", decision: "deny", chatId: "nope" })).rejects.toMatchObject({ code: "unknown_chat" });
  });

  it("a broad allow is refused without confirmBroad, saved with it, and listed with its warning (#28.8)", async () => {
    await expect(admin.saveNewRule({ decision: "allow" })).rejects.toMatchObject({
      status: 400,
      code: "broad_rule",
      message: expect.stringMatching(/every tool/),
    });
    await expect(admin.saveNewRule({ tool: "sample_save_note", decision: "allow" })).rejects.toMatchObject({
      code: "broad_rule",
      message: expect.stringMatching(/every call of sample_save_note/),
    });
    await expect(admin.saveNewRule({ tool: "sample_save_note", decision: "allow", args: { title: ".*" } })).rejects.toMatchObject({ code: "broad_rule" });
    const narrow = await admin.saveNewRule({ tool: "sample_save_note", decision: "allow", args: { title: "^todo$" } });
    const wide = await admin.saveNewRule({ tool: "sample_save_note", decision: "allow", confirmBroad: true });
    // Editing a narrow rule into a broad one needs the same confirmation.
    await expect(admin.changeRule(narrow.id, { tool: "sample_save_note", decision: "allow" })).rejects.toMatchObject({ code: "broad_rule" });
    const views = await admin.listRuleViews();
    expect(views.find((v) => v.id === wide.id)?.broad).toMatch(/every call of sample_save_note/);
    expect(views.find((v) => v.id === narrow.id)).not.toHaveProperty("broad");
  });
});
