import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, useTempDatabase } from "@/lib/testing/approvals-harness";

// The server side of /collections: collections found in the source root, runs stored step by step,
// confirming calls decided by a person through try-it's approvals, and "Save to collection".
const dir = useTempDatabase("toolroom-collections-server-");
const source = path.join(dir, "src");
const ledger = path.join(dir, "ledger.txt");
const pluginDir = path.join(dir, "plugins", "tally-plugin");

const COLLECTION = `name: checks
vars: { file: notes.txt }
calls:
  - name: read
    tool: read_file
    input: { path: "{{file}}" }
    expect: { contains: alpha }
  - name: tally
    tool: tally
    input: { id: "{{calls.read.output}}" }
    expect: { contains: done }
`;

beforeAll(async () => {
  fs.mkdirSync(pluginDir, { recursive: true });
  fs.writeFileSync(
    path.join(pluginDir, "package.json"),
    JSON.stringify({ name: "tally-plugin", version: "1.0.0", type: "module", toolroom: { tools: { tally: "./tools.js#tally" } } }),
  );
  fs.writeFileSync(
    path.join(pluginDir, "tools.js"),
    `import fs from "node:fs";
export const tally = {
  name: "tally",
  description: "Writes one line to the test's ledger. Args: id.",
  input: { jsonSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false } },
  readonly: false,
  confirm: { evaluate: () => true, notAdmitted: ({ id }, why) => \`Not run: tally was \${why.kind}.\` },
  execute: ({ id }) => { fs.appendFileSync(${JSON.stringify(ledger)}, id.trim() + "\\n"); return \`tally \${id.trim()} done\`; },
};
`,
  );
  fs.mkdirSync(path.join(source, "checks"), { recursive: true });
  fs.mkdirSync(path.join(source, "ignored"), { recursive: true });
  fs.writeFileSync(path.join(source, "notes.txt"), "alpha\n");
  fs.writeFileSync(path.join(source, "checks/checks.calls.yaml"), COLLECTION);
  fs.writeFileSync(path.join(source, "checks/broken.calls.yaml"), "name: broken\ncalls:\n  - name: a\n    tool: read_file\n    inptu: {}\n");
  fs.writeFileSync(path.join(source, "ignored/hidden.calls.yaml"), COLLECTION);
  fs.writeFileSync(path.join(source, ".aiignore"), "ignored/\n");
  fs.symlinkSync(path.join(dir, "plugins"), path.join(source, "linked"));
  await startServer({ TOOLROOM_SOURCEROOT: source, TOOLROOM_PLUGINS__PATHS: JSON.stringify([pluginDir]) });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const ledgerLines = () => (fs.existsSync(ledger) ? fs.readFileSync(ledger, "utf8").split("\n").filter(Boolean) : []);

describe("collections in the app", { timeout: 60_000 }, () => {
  it("lists the source root's collections (not .aiignored ones) and the examples, a broken one with its line", async () => {
    const { collectionsOverview } = await import("./collection-runs");
    const { collections } = await collectionsOverview();
    const byKey = Object.fromEntries(collections.map((c) => [c.key, c]));
    expect(Object.keys(byKey).sort()).toEqual(["examples:sample-plugin.calls.yaml", "source:checks/broken.calls.yaml", "source:checks/checks.calls.yaml"]);
    expect(byKey["source:checks/checks.calls.yaml"]!.collection?.calls.map((c) => c.name)).toEqual(["read", "tally"]);
    expect(byKey["source:checks/broken.calls.yaml"]!.error).toBe('checks/broken.calls.yaml:5: call 1 "a", key inptu: unknown key');
  });

  it("runs step by step: a confirming call waits for the person, runs once on their approval, and the run is stored", async () => {
    const { startCollectionRun, stepCollectionRun, collectionsOverview } = await import("./collection-runs");
    const run = await startCollectionRun({ key: "source:checks/checks.calls.yaml", vars: {} });
    expect(run).toMatchObject({ state: "running", total: 2, done: 0 });
    const first = await stepCollectionRun(run.id, {});
    expect(first.run.results).toMatchObject([{ name: "read", verdict: "pass" }]);
    const asked = await stepCollectionRun(run.id, {});
    expect(asked.approval).toMatchObject({ toolName: "tally", input: { id: "alpha\n" } });
    expect(asked.run.done).toBe(1);
    expect(ledgerLines()).toEqual([]);
    const approved = await stepCollectionRun(run.id, { approvalId: asked.approval!.approvalId, decision: "approve" });
    expect(approved.run).toMatchObject({ state: "done", done: 2, passed: 2, failed: 0 });
    expect(approved.run.results[1]).toMatchObject({ name: "tally", outcome: "ran", text: "tally alpha done" });
    expect(ledgerLines()).toEqual(["alpha"]);
    // The same approval again decides nothing: the run has ended, and the tool did not run twice.
    await expect(stepCollectionRun(run.id, { approvalId: asked.approval!.approvalId, decision: "approve" })).rejects.toMatchObject({ status: 409 });
    expect(ledgerLines()).toEqual(["alpha"]);
    const { collections } = await collectionsOverview();
    const listed = collections.find((c) => c.key === "source:checks/checks.calls.yaml")!;
    expect(listed.history.map((h) => h.id)).toEqual([run.id]);
    expect(listed.last?.changes).toEqual({ read: "new", tally: "new" });
  });

  it("a denial is not admitted, fails its call, and the next run shows what broke since the last", async () => {
    const { startCollectionRun, stepCollectionRun } = await import("./collection-runs");
    const run = await startCollectionRun({ key: "source:checks/checks.calls.yaml", vars: {} });
    await stepCollectionRun(run.id, {});
    const asked = await stepCollectionRun(run.id, {});
    const denied = await stepCollectionRun(run.id, { approvalId: asked.approval!.approvalId, decision: "deny", reason: "not today" });
    expect(denied.run.results[1]).toMatchObject({
      outcome: "not-admitted",
      decidedBy: "user",
      verdict: "fail",
      failures: [{ key: "notAdmitted" }, { key: "contains" }],
    });
    expect(denied.run.changes).toEqual({ read: "same", tally: "broke" });
    expect(ledgerLines()).toEqual(["alpha"]);
  });

  it("vars from the page reach the input; a collection outside the source root or unknown is a 404", async () => {
    const { startCollectionRun, stepCollectionRun } = await import("./collection-runs");
    const run = await startCollectionRun({ key: "source:checks/checks.calls.yaml", vars: { file: "nope.txt" } });
    const step = await stepCollectionRun(run.id, {});
    expect(step.run.results[0]).toMatchObject({ input: { path: "nope.txt" }, verdict: "fail", failures: [{ key: "error" }, { key: "contains" }] });
    for (const key of ["source:../x.calls.yaml", "source:ignored/hidden.calls.yaml", "examples:../evals/x.calls.yaml", "/etc/passwd"])
      await expect(startCollectionRun({ key, vars: {} })).rejects.toMatchObject({ status: 404 });
    await expect(startCollectionRun({ key: "source:checks/broken.calls.yaml", vars: {} })).rejects.toMatchObject({ status: 400 });
  });

  it("saves a call into a new collection and then appends to it, inside the source root only", async () => {
    const { saveCall } = await import("./save-call");
    const { getSettings } = await import("@/lib/settings");
    const call = (name: string) => `name: ${name}\ntool: read_file\ninput: { path: notes.txt }\nexpect: { contains: alpha }\n`;
    expect(await saveCall(getSettings(), { file: "saved/mine.calls.yaml", text: call("one") })).toMatchObject({
      created: true,
      calls: 1,
      key: "source:saved/mine.calls.yaml",
    });
    expect(await saveCall(getSettings(), { file: "saved/mine.calls.yaml", text: call("two") })).toMatchObject({ created: false, calls: 2 });
    expect(fs.readFileSync(path.join(source, "saved/mine.calls.yaml"), "utf8")).toContain("- name: two");
    await expect(saveCall(getSettings(), { file: "saved/mine.calls.yaml", text: call("two") })).rejects.toThrow(/has a call named "two" already/);
    await expect(saveCall(getSettings(), { file: "../escape.calls.yaml", text: call("x") })).rejects.toThrow(/inside the source root/);
    await expect(saveCall(getSettings(), { file: "linked/x.calls.yaml", text: call("x") })).rejects.toThrow(/link|outside|source root/);
    await expect(saveCall(getSettings(), { file: "notes.txt", text: call("x") })).rejects.toThrow(/named like name\.calls\.yaml/);
    await expect(saveCall(getSettings(), { file: "saved/mine.calls.yaml", text: "name: bad\ntool: read_file\ninptu: {}\n" })).rejects.toThrow(
      "key inptu: unknown key",
    );
    expect(fs.existsSync(path.join(dir, "escape.calls.yaml"))).toBe(false);
    expect(fs.readdirSync(path.join(dir, "plugins"))).toEqual(["tally-plugin"]);
  });
});
