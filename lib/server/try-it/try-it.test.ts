import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settingsSchema } from "@/lib/settings/schema";
import type { Registry } from "@/lib/tools/registry-types";
import { loadRegistry } from "@/lib/server/runtime/registry";
import { useTempDatabase } from "@/lib/testing/approvals-harness";
import { runTryIt, type TryItDeps } from "./try-it";

const root = useTempDatabase("toolroom-tryit-");
const settings = settingsSchema.parse({
  sourceRoot: root,
  plugins: { paths: [path.resolve("examples/plugins/toolroom-plugin-sample")] },
  chat: { approvalTimeoutSeconds: 60 },
  tools: { read_file: { enabled: false } },
});
let registry: Registry;
let now = 0;
let deps: TryItDeps;

beforeAll(async () => {
  execFileSync(process.execPath, ["scripts/migrate.mjs", "deploy"], { env: process.env, stdio: "pipe" });
  registry = await loadRegistry({ settings, log: () => {} });
  const { TryItApprovals } = await import("./try-it-approvals");
  deps = { registry, settings, approvals: new TryItApprovals(() => now) };
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const note = path.join(root, ".toolroom", "notes", "t1.md");

describe("runTryIt", () => {
  it("runs a read-only tool directly", async () => {
    const r = await runTryIt("sample_word_count", { input: { text: "a b c" } }, deps);
    expect(r).toMatchObject({ httpStatus: 200, body: { status: "done", text: "words=3 lines=1 chars=5", isError: false } });
  });

  it("answers field issues for invalid input, without running", async () => {
    const r = await runTryIt("sample_save_note", { input: { title: "bad title!", body: 1 } }, deps);
    expect(r.httpStatus).toBe(422);
    expect(r.body).toMatchObject({ status: "invalid" });
    if (r.body.status !== "invalid") return;
    expect(r.body.issues.map((i) => i.path).sort()).toEqual(["body", "title"]);
  });

  it("asks for approval, then denies without running", async () => {
    const input = { title: "t1", body: "hello" };
    const first = await runTryIt("sample_save_note", { input }, deps);
    expect(first.body).toMatchObject({ status: "approval-required", toolName: "sample_save_note", sourcePackage: "toolroom-plugin-sample", readonly: false });
    if (first.body.status !== "approval-required") return;
    const denied = await runTryIt("sample_save_note", { input, approvalId: first.body.approvalId, decision: "deny", reason: "not now" }, deps);
    expect(denied.body).toMatchObject({ status: "not-admitted", why: "denied", text: expect.stringContaining('declined the note "t1" (reason: not now)') });
    expect(fs.existsSync(note)).toBe(false);
    // The id is spent.
    const again = await runTryIt("sample_save_note", { input, approvalId: first.body.approvalId, decision: "approve" }, deps);
    expect(again).toMatchObject({ httpStatus: 409, body: { status: "error", error: expect.stringContaining("already used") } });
    expect(fs.existsSync(note)).toBe(false);
  });

  it("runs on approval only with the exact input", async () => {
    const input = { title: "t1", body: "hello" };
    const first = await runTryIt("sample_save_note", { input }, deps);
    if (first.body.status !== "approval-required") throw new Error("expected approval");
    const changed = await runTryIt("sample_save_note", { input: { ...input, body: "other" }, approvalId: first.body.approvalId, decision: "approve" }, deps);
    expect(changed).toMatchObject({ httpStatus: 409 });
    expect(await runTryIt("sample_save_note", { input, approvalId: "forged", decision: "approve" }, deps)).toMatchObject({ httpStatus: 404 });
    const ok = await runTryIt("sample_save_note", { input: { body: "hello", title: "t1" }, approvalId: first.body.approvalId, decision: "approve" }, deps);
    expect(ok.body).toMatchObject({ status: "done", text: "Wrote .toolroom/notes/t1.md", madeChanges: true });
    expect(fs.readFileSync(note, "utf8")).toBe("hello\n");
  });

  it("treats a late answer as timed out", async () => {
    const input = { title: "t2", body: "x" };
    const first = await runTryIt("sample_save_note", { input }, deps);
    if (first.body.status !== "approval-required") throw new Error("expected approval");
    now += 61_000;
    const late = await runTryIt("sample_save_note", { input, approvalId: first.body.approvalId, decision: "approve" }, deps);
    expect(late.body).toMatchObject({ status: "not-admitted", why: "timed-out", text: expect.stringContaining("in time") });
    expect(fs.existsSync(path.join(root, ".toolroom", "notes", "t2.md"))).toBe(false);
  });

  it("refuses unknown and disabled tools and malformed bodies", async () => {
    expect(await runTryIt("nope", { input: {} }, deps)).toMatchObject({ httpStatus: 404 });
    expect(await runTryIt("read_file", { input: { path: "x" } }, deps)).toMatchObject({
      httpStatus: 409,
      body: { error: expect.stringContaining("disabled") },
    });
    expect(await runTryIt("sample_word_count", [1], deps)).toMatchObject({ httpStatus: 400 });
    expect(await runTryIt("sample_word_count", { input: {}, decision: "maybe" }, deps)).toMatchObject({ httpStatus: 400 });
  });

  it("validates a decision strictly: a non-string decision or an over-long reason decides nothing", async () => {
    const input = { title: "t-strict", body: "x" };
    const first = await runTryIt("sample_save_note", { input }, deps);
    if (first.body.status !== "approval-required") throw new Error("expected an approval request");
    const approvalId = first.body.approvalId;
    for (const bad of [{ decision: true }, { decision: "yes" }, { decision: "deny", reason: "r".repeat(2001) }, { decision: "deny", reason: 42 }]) {
      const r = await runTryIt("sample_save_note", { input, approvalId, ...bad }, deps);
      expect(r, JSON.stringify(bad)).toMatchObject({ httpStatus: 400, body: { status: "error", code: "invalid_request" } });
    }
    // Nothing was decided: the approval is still there to answer.
    const denied = await runTryIt("sample_save_note", { input, approvalId, decision: "deny", reason: "r".repeat(2000) }, deps);
    expect(denied).toMatchObject({ httpStatus: 200, body: { status: "not-admitted", why: "denied" } });
  });
});

describe("runTryIt with approval rules and edits", () => {
  const withRules = async (rules: unknown[]) => {
    const { settingsRuleDecider } = await import("@/lib/server/approvals/settings-rules");
    const ruled = settingsSchema.parse({ ...settings, approvals: { rules } });
    return { ...deps, settings: ruled, rules: settingsRuleDecider(ruled) };
  };
  const notePath = (title: string) => path.join(root, ".toolroom", "notes", `${title}.md`);

  it("an approved call with edited arguments runs the edited input, once", async () => {
    const input = { title: "proposed", body: "model" };
    const first = await runTryIt("sample_save_note", { input }, deps);
    if (first.body.status !== "approval-required") throw new Error("expected an approval request");
    const edited = { title: "edited", body: "person" };
    const ran = await runTryIt("sample_save_note", { input, approvalId: first.body.approvalId, decision: "approve", editedInput: edited }, deps);
    expect(ran.body).toMatchObject({ status: "done", isError: false });
    expect(fs.readFileSync(notePath("edited"), "utf8")).toBe("person\n");
    expect(fs.existsSync(notePath("proposed"))).toBe(false);
    const again = await runTryIt("sample_save_note", { input, approvalId: first.body.approvalId, decision: "approve", editedInput: edited }, deps);
    expect(again.httpStatus).toBe(409);
  });

  it("refuses an edit that is invalid, or that a deny rule matches, without running", async () => {
    const ruled = await withRules([{ tool: "sample_save_note", args: { title: "^secret" }, decision: "deny", reason: "no secrets" }]);
    const input = { title: "plain", body: "x" };
    const ask = async () => {
      const first = await runTryIt("sample_save_note", { input }, ruled);
      if (first.body.status !== "approval-required") throw new Error("expected an approval request");
      return first.body.approvalId;
    };
    const invalid = await runTryIt("sample_save_note", { input, approvalId: await ask(), decision: "approve", editedInput: { title: 1 } }, ruled);
    expect(invalid.httpStatus).toBe(422);
    const denied = await runTryIt(
      "sample_save_note",
      { input, approvalId: await ask(), decision: "approve", editedInput: { title: "secret-plan", body: "x" } },
      ruled,
    );
    expect(denied.body).toMatchObject({ status: "not-admitted", why: "denied", text: expect.stringContaining("no secrets") });
    expect(fs.existsSync(notePath("secret-plan"))).toBe(false);
    expect(fs.existsSync(notePath("plain"))).toBe(false);
  });

  it("an allow rule runs without asking; a deny rule refuses a tool that never asks", async () => {
    const ruled = await withRules([
      { tool: "sample_save_note", args: { title: "^ok-" }, decision: "allow" },
      { tool: "sample_word_count", decision: "deny", reason: "counting is off" },
    ]);
    expect((await runTryIt("sample_save_note", { input: { title: "ok-1", body: "y" } }, ruled)).body).toMatchObject({ status: "done" });
    expect(fs.existsSync(notePath("ok-1"))).toBe(true);
    expect((await runTryIt("sample_word_count", { input: { text: "a" } }, ruled)).body).toMatchObject({
      status: "not-admitted",
      text: expect.stringContaining("counting is off"),
    });
  });
});
