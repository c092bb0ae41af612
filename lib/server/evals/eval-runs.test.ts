import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, useTempDatabase } from "@/lib/testing/approvals-harness";

// The server side of /evals: suites found in the source root and examples/evals, an eval started in
// the background whose trials are stored as eval chats (left out of the chat list) and whose results are a run.
const dir = useTempDatabase("toolroom-evals-server-");
const source = path.join(dir, "src");
const runsRoot = path.join(dir, "runs");

beforeAll(async () => {
  fs.mkdirSync(path.join(source, "suites"), { recursive: true });
  fs.mkdirSync(path.join(source, "ignored"), { recursive: true });
  fs.writeFileSync(path.join(source, "notes.txt"), "alpha\n");
  fs.writeFileSync(
    path.join(source, "suites/demo.eval.yaml"),
    "name: demo\nmatrix: { modes: [native, text] }\ncases:\n  - { name: read, prompt: read notes.txt, expect: { calls: [{ tool: read_file, args: { path: notes.txt } }] } }\n  - { name: wrong, prompt: read notes.txt, expect: { calls: [{ tool: grep_code }] } }\n",
  );
  fs.writeFileSync(path.join(source, "suites/broken.eval.yaml"), "name: broken\ncases: []\n");
  fs.writeFileSync(path.join(source, "ignored/hidden.eval.yaml"), "name: hidden\ncases: [{ name: c, prompt: hi }]\n");
  fs.writeFileSync(path.join(source, ".aiignore"), "ignored/\n");
  await startServer({ TOOLROOM_SOURCEROOT: source, TOOLROOM_RUNSROOT: runsRoot });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function finished(id: string) {
  const { evalRuns } = await import("./eval-runs");
  for (;;) {
    const run = evalRuns().find((r) => r.id === id);
    if (run?.state !== "running") return run;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("evals on the server", () => {
  it("lists suites in the source root (through .aiignore) and the examples, with validation errors", async () => {
    const { listSuites } = await import("./suites");
    const { getSettings } = await import("@/lib/settings");
    const suites = listSuites(getSettings());
    expect(suites.map((s) => s.key)).toEqual(["source:suites/broken.eval.yaml", "source:suites/demo.eval.yaml", "examples:builtins.eval.yaml"]);
    expect(suites[0]?.error).toMatch(/^suites\/broken\.eval\.yaml: key cases: /);
    expect(suites[1]).toMatchObject({ name: "demo", cases: 2, modes: ["native", "text"], error: null });
  });

  it("runs a suite in the background: progress, a run under runsRoot/evals, trials stored as eval chats", async () => {
    const { startEval } = await import("./eval-runs");
    const queries = await import("@/lib/db/queries");
    const started = startEval("source:suites/demo.eval.yaml", {});
    expect(started).toMatchObject({ suite: "demo", state: "running", total: 4, done: 0 });
    const run = await finished(started.id);
    expect(run).toMatchObject({ state: "done", done: 4, total: 4, passed: 2, failed: 2, errors: 0, error: null });
    expect(run?.runRel).toMatch(/^evals\/demo\/\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}$/);

    const cases = JSON.parse(fs.readFileSync(path.join(runsRoot, run!.runRel!, "cases.json"), "utf8")) as { trials: { chat_id: string; verdict: string }[] };
    const chatId = cases.trials[0]!.chat_id;
    expect(chatId).toMatch(/^eval-/);
    expect(await queries.getChat(chatId)).toMatchObject({ id: chatId, supervised: false, modelRef: "offline" });
    const messages = await queries.loadMessages(chatId);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect((await queries.listChats()).map((c) => c.id)).not.toContain(chatId);

    const matrix = JSON.parse(fs.readFileSync(path.join(runsRoot, run!.runRel!, "matrix.json"), "utf8")) as {
      cells: { failing_cases: { chat_id: string }[] }[];
    };
    expect(matrix.cells[0]?.failing_cases[0]?.chat_id).toMatch(/^eval-/);
  });

  it("refuses a suite that is not listed, and an invalid one", async () => {
    const { startEval } = await import("./eval-runs");
    expect(() => startEval("source:../../etc/x.eval.yaml", {})).toThrow(/No eval suite/);
    expect(() => startEval("source:suites/broken.eval.yaml", {})).toThrow(/key cases/);
    expect(() => startEval("source:suites/demo.eval.yaml", { models: ["nope"] })).toThrow(/No model named "nope"/);
  });
});
