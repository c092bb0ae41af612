import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEXT_PROTOCOLS } from "@/lib/chat/text-protocol/types";
import { startServer, useTempDatabase } from "@/lib/testing/approvals-harness";
import { testEngine } from "@/lib/testing/test-database";

// The server side of /evals: suites found in the source root and examples/evals, an eval started in
// the background whose trials are stored as eval chats (left out of the chat list) and whose results are a run.
const dir = useTempDatabase("toolroom-evals-server-");
/** The storage suite's PostgreSQL run: evals are queued, their trials jobs (lib/server/jobs/trial-queue.ts). */
const queued = testEngine() === "postgresql";
const source = path.join(dir, "src");
const runsRoot = path.join(dir, "runs");
const evilMarker = path.join(dir, "evil-imported");
const goodMarker = path.join(dir, "good-imported");
const ledger = path.join(dir, "ledger.txt");
const holding = path.join(dir, "holding.txt");
const release = path.join(dir, "release");

/** A plugin folder whose import writes `marker` (so "was it imported?" is a file), with one confirming tool that appends to the ledger. */
function plugin(folder: string, name: string, marker: string) {
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(
    path.join(folder, "package.json"),
    JSON.stringify({ name, version: "1.0.0", type: "module", toolroom: { tools: { tally: "./tools.js#tally", hold: "./tools.js#hold" } } }),
  );
  fs.writeFileSync(
    path.join(folder, "tools.js"),
    `import fs from "node:fs";
fs.writeFileSync(${JSON.stringify(marker)}, "imported");
export const tally = {
  name: "tally",
  description: "Writes one line to the test's ledger. Args: id.",
  input: { jsonSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false } },
  readonly: false,
  confirm: { evaluate: () => true, notAdmitted: ({ id }, why) => \`Not run: tally \${id} was \${why.kind}.\` },
  execute: ({ id }) => { fs.appendFileSync(${JSON.stringify(ledger)}, id + "\\n"); return \`tally \${id} done\`; },
};
// Runs until the test creates the release file: a trial that is still running when Cancel is pressed.
export const hold = {
  name: "hold",
  description: "Waits for the test. Args: id.",
  input: { jsonSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false } },
  execute: async ({ id }) => {
    fs.appendFileSync(${JSON.stringify(holding)}, id + "\\n");
    while (!fs.existsSync(${JSON.stringify(release)})) await new Promise((r) => setTimeout(r, 10));
    return "released";
  },
};
`,
  );
}

const suite = (name: string, body: string) => fs.writeFileSync(path.join(source, "suites", `${name}.eval.yaml`), `name: ${name}\n${body}`);

beforeAll(async () => {
  fs.mkdirSync(path.join(source, "suites"), { recursive: true });
  fs.mkdirSync(path.join(source, "ignored"), { recursive: true });
  fs.writeFileSync(path.join(source, "notes.txt"), "alpha\n");
  plugin(path.join(source, "suites/evilplugin"), "evilplugin", evilMarker);
  plugin(path.join(source, "trusted/plugins/goodplugin"), "goodplugin", goodMarker);
  suite(
    "demo",
    "matrix: { modes: [native, text] }\ncases:\n  - { name: read, prompt: read notes.txt, expect: { calls: [{ tool: read_file, args: { path: notes.txt } }] } }\n  - { name: wrong, prompt: read notes.txt, expect: { calls: [{ tool: grep_code }] } }\n",
  );
  fs.writeFileSync(path.join(source, "suites/broken.eval.yaml"), "name: broken\ncases: []\n");
  suite("evil", "settings: { plugins: { paths: [./evilplugin] } }\ncases: [{ name: c, prompt: hi }]\n");
  suite(
    "shell",
    "settings: { tools: { run_terminal_command: { enabled: true, allowedCommands: [sh], passEnv: [OPENAI_API_KEY] } } }\ncases: [{ name: c, prompt: hi }]\n",
  );
  suite("approver", 'cases: [{ name: yes, prompt: \'run_terminal_command {"command": "sh -c id"}\', confirm: approve }]\n');
  suite("mocker", "cases: [{ name: m, prompt: hi, mocks: { run_terminal_command: done } }]\n");
  suite("judged", "cases: [{ name: polite, prompt: hi, expect: { answer: { judge: is polite, model: nobody } } }]\n");
  suite(
    "big",
    "matrix: { models: [offline, offline, offline], trials: 1000 }\ncases: [{ name: a, prompt: hi }, { name: b, prompt: hi }, { name: c, prompt: hi }, { name: d, prompt: hi }, { name: e, prompt: hi }, { name: f, prompt: hi }]\n",
  );
  fs.mkdirSync(path.join(source, "trusted"), { recursive: true });
  fs.writeFileSync(
    path.join(source, "trusted/ledger.eval.yaml"),
    `name: ledger
settings: { plugins: { paths: [./plugins] } }
cases:
  - { name: approved, prompt: 'tally {"id": "ok"}', confirm: approve, expect: { calls: [{ tool: tally }] } }
  - { name: arg-denied, prompt: 'tally {"id": "secret"}', confirm: approve, expect: { calls: [{ tool: tally }] } }
`,
  );
  fs.writeFileSync(
    path.join(source, "trusted/hold.eval.yaml"),
    "name: hold\nsettings: { plugins: { paths: [./plugins] } }\nmatrix: { trials: 3 }\ncases:\n" +
      ["a", "b", "c", "d"].map((n) => `  - { name: ${n}, prompt: 'hold {"id": "${n}"}', expect: { calls: [{ tool: hold }] } }\n`).join(""),
  );
  fs.writeFileSync(path.join(source, "ignored/hidden.eval.yaml"), "name: hidden\ncases: [{ name: c, prompt: hi }]\n");
  fs.writeFileSync(path.join(source, ".aiignore"), "ignored/\n");
  await startServer({
    TOOLROOM_SOURCEROOT: source,
    TOOLROOM_RUNSROOT: runsRoot,
    TOOLROOM_EVALS__TRUSTED: "[trusted/*.eval.yaml]",
    // The person's own settings offer the (confirming) shell tool; a suite mocking it would answer for its calls.
    TOOLROOM_TOOLS__RUN_TERMINAL_COMMAND__ENABLED: "true",
    // An argument deny: the settings' rules decide before an eval case's `confirm: approve`.
    TOOLROOM_APPROVALS__RULES: '[{ tool: tally, args: { id: "^secret$" }, decision: deny, reason: "no secrets" }]',
    // On PostgreSQL runs are queued: this process takes their trials, four at once, as a web instance does.
    TOOLROOM_WORKERS__INPROCESS: "4",
  });
  if (queued) {
    const [{ startInProcessTrials }, { getSettings }] = await Promise.all([import("./queued-evals"), import("@/lib/settings")]);
    await startInProcessTrials(getSettings());
  }
});
afterAll(async () => {
  if (queued) await (await import("@/lib/server/jobs/trial-queue")).stopTrialWork(false);
  fs.rmSync(dir, { recursive: true, force: true });
});

async function finished(id: string) {
  const { evalRuns } = await import("./eval-runs");
  for (;;) {
    const run = (await evalRuns()).find((r) => r.id === id);
    if (run?.state !== "running") return run;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function refusal(key: string, choice = {}): Promise<{ status: number; message: string }> {
  const { startEval } = await import("./eval-runs");
  try {
    await startEval(key, choice);
  } catch (error) {
    return { status: (error as { status: number }).status, message: (error as Error).message };
  }
  throw new Error(`${key} was not refused`);
}

describe("evals on the server", () => {
  it("lists suites in the source root (through .aiignore) and the examples: what each asks for, and whether it is trusted", async () => {
    const { evalsOverview } = await import("./eval-runs");
    const { suites } = await evalsOverview();
    const by = new Map(suites.map((s) => [s.key, s]));
    expect([...by.keys()]).not.toContain("source:ignored/hidden.eval.yaml");
    expect(by.get("source:suites/broken.eval.yaml")?.error).toMatch(/^suites\/broken\.eval\.yaml: key cases: /);
    expect(by.get("source:suites/demo.eval.yaml")).toMatchObject({ name: "demo", cases: 2, modes: ["native", "text"], error: null, trusted: false });
    expect(by.get("source:suites/evil.eval.yaml")).toMatchObject({ trusted: false, asks: { plugins: ["./evilplugin"], tools: [], approves: [] } });
    expect(by.get("source:suites/shell.eval.yaml")?.asks?.tools).toEqual([{ name: "run_terminal_command", keys: ["enabled", "allowedCommands", "passEnv"] }]);
    expect(by.get("source:suites/approver.eval.yaml")?.asks?.approves).toEqual(["case yes: confirm approve"]);
    expect(by.get("source:suites/mocker.eval.yaml")?.asks?.approves).toEqual(["case m: mocks run_terminal_command (a confirming tool)"]);
    expect(by.get("source:suites/evil.eval.yaml")?.trustLine).toBe('evals: { trusted: ["suites/evil.eval.yaml"] }');
    expect(by.get("source:trusted/ledger.eval.yaml")).toMatchObject({ trusted: true, asks: { trials: 1 } });
    expect(by.get("examples:builtins.eval.yaml")).toMatchObject({ trusted: true });
    expect(fs.existsSync(evilMarker)).toBe(false);
  });

  it("refuses (403) an untrusted suite that loads a plugin, configures a tool or approves a call, with the settings line that trusts it", async () => {
    for (const name of ["evil", "shell", "approver", "mocker"]) {
      const { status, message } = await refusal(`source:suites/${name}.eval.yaml`);
      expect(status).toBe(403);
      expect(message).toContain(`evals: { trusted: ["suites/${name}.eval.yaml"] }`);
    }
    expect((await refusal("source:suites/evil.eval.yaml")).message).toContain("loads the plugin ./evilplugin");
    expect((await refusal("source:suites/shell.eval.yaml")).message).toContain("configures the tool run_terminal_command (enabled, allowedCommands, passEnv)");
    expect(fs.existsSync(evilMarker)).toBe(false);
  });

  it("never imports an untrusted suite's plugin even when called below the page (evaluate), and does when trusted", async () => {
    const { evaluate } = await import("./evaluate");
    const { loadSuite } = await import("@/lib/evals/suite");
    const { getSettings } = await import("@/lib/settings");
    const loaded = loadSuite(path.join(source, "suites/evil.eval.yaml"));
    await expect(evaluate({ loaded, settings: getSettings(), trusted: false, trustKey: "suites/evil.eval.yaml", cwd: dir })).rejects.toThrow(
      /not trusted.*evals: \{ trusted: \["suites\/evil\.eval\.yaml"\] \}/,
    );
    expect(fs.existsSync(evilMarker)).toBe(false);
    // The same suite, trusted (as `toolroom eval FILE` does): its plugin is imported. So the refusal above is what kept it out.
    await evaluate({ loaded, settings: getSettings(), trusted: true, trustKey: "suites/evil.eval.yaml", cwd: dir });
    expect(fs.existsSync(evilMarker)).toBe(true);
    fs.rmSync(evilMarker);
  });

  it("runs a trusted suite's plugin, and the settings' argument deny stops a case that says confirm: approve", async () => {
    const { startEval } = await import("./eval-runs");
    const started = await startEval("source:trusted/ledger.eval.yaml", {});
    const run = await finished(started.id);
    expect(run).toMatchObject({ state: "done", total: 2, done: 2 });
    expect(fs.existsSync(goodMarker)).toBe(true);
    expect(fs.readFileSync(ledger, "utf8")).toBe("ok\n");
    const cases = JSON.parse(fs.readFileSync(path.join(runsRoot, run!.runRel!, "cases.json"), "utf8")) as { trials: { case: string; calls: unknown[] }[] };
    expect(cases.trials.map((t) => [t.case, t.calls])).toEqual([
      ["approved", [expect.objectContaining({ tool: "tally", outcome: "executed", decidedBy: "eval" })]],
      ["arg-denied", [expect.objectContaining({ tool: "tally", outcome: "denied", decidedBy: "rule" })]],
    ]);
  });

  it("runs a suite in the background: progress, a run under runsRoot/evals, trials stored as eval chats", async () => {
    const { startEval } = await import("./eval-runs");
    const queries = await import("@/lib/db/queries");
    const started = await startEval("source:suites/demo.eval.yaml", {});
    expect(started).toMatchObject({ suite: "demo", state: "running", total: 4, done: 0 });
    const run = await finished(started.id);
    expect(run).toMatchObject({ state: "done", done: 4, total: 4, passed: 2, failed: 2, errors: 0, error: null, partial: false });
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
    expect(fs.readdirSync(path.join(runsRoot, run!.runRel!)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("a run's trial chats are its starter's, whichever process runs the trials: others (an admin too) get 404 on them, the results stay everyone's", async () => {
    const { asPerson } = await import("@/lib/server/auth/person");
    const { visibleChat } = await import("@/lib/server/chat/chat-access");
    const { startEval, evalRuns } = await import("./eval-runs");
    const mia = { id: "user-mia", email: "mia@example.com", role: "member" as const };
    const ada = { id: "user-ada", email: "ada@example.com", role: "admin" as const };
    const started = await asPerson(mia, () => startEval("source:suites/demo.eval.yaml", { modes: ["native"] }));
    const run = await finished(started.id);
    expect(run).toMatchObject({ state: "done", done: 2 });
    const cases = JSON.parse(fs.readFileSync(path.join(runsRoot, run!.runRel!, "cases.json"), "utf8")) as { trials: { chat_id: string }[] };
    expect(cases.trials).toHaveLength(2);
    for (const { chat_id: chatId } of cases.trials) {
      expect(await asPerson(mia, () => visibleChat(chatId))).toMatchObject({ id: chatId, ownerId: mia.id });
      expect(await asPerson(ada, () => visibleChat(chatId))).toBeNull();
    }
    // Everyone still reads the run itself: its status and its results.
    expect((await asPerson(ada, () => evalRuns())).find((r) => r.id === started.id)).toMatchObject({ state: "done", passed: 1, failed: 1 });
  });

  it("sweeps over HTTP (POST /api/evals with protocols: all): native and every text protocol, each trial with its tokens and its stored trace", async () => {
    const { POST } = await import("@/app/api/evals/route");
    const { listTraceSteps } = await import("@/lib/db/trace-queries");
    const response = await POST(
      new Request("http://127.0.0.1/api/evals", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ suite: "source:suites/demo.eval.yaml", protocols: "all", trials: 1 }),
      }),
    );
    expect(response.status).toBe(202);
    const { run: started } = (await response.json()) as { run: { id: string; total: number } };
    const run = await finished(started.id);
    expect(run?.cells.map((c) => c.name)).toEqual(["offline · native", ...TEXT_PROTOCOLS.map((p) => `offline · text · ${p}`)]);
    const cases = JSON.parse(fs.readFileSync(path.join(runsRoot, run!.runRel!, "cases.json"), "utf8")) as {
      trials: { chat_id: string; input_tokens: number | null }[];
    };
    expect(cases.trials.every((t) => typeof t.input_tokens === "number" && t.input_tokens > 0)).toBe(true);
    expect((await listTraceSteps(cases.trials[0]!.chat_id)).length).toBeGreaterThan(0);
  });

  it("refuses a run above evals.maxTrials with the number (repeated models count once), before anything runs", async () => {
    const { status, message } = await refusal("source:suites/big.eval.yaml");
    expect(status).toBe(400);
    // 3 × offline is one model: 1 cell × 6 cases × 1,000 trials.
    expect(message).toContain("This eval would run 6,000 trials, above the limit of 5,000 (settings evals.maxTrials)");
  });

  it("cancels: no new trials start, the running ones end, what finished is a partial run, and resuming runs only the rest", async () => {
    const { startEval, cancelEval, resumeEval } = await import("./eval-runs");
    const started = await startEval("source:trusted/hold.eval.yaml", {});
    expect(started.total).toBe(12);
    // Four trials (evals.concurrency) are inside the hold tool when Cancel is pressed.
    const held = () => (fs.existsSync(holding) ? fs.readFileSync(holding, "utf8").split("\n").filter(Boolean).length : 0);
    while (held() < 4) await new Promise((resolve) => setTimeout(resolve, 20));
    const cancelling = await cancelEval(started.id);
    fs.writeFileSync(release, "");
    let run;
    if (queued) {
      // Queued: cancelled at once for every worker; the four running trials finish and are kept,
      // and what finished opens as a partial run.
      expect(cancelling).toMatchObject({ state: "cancelled", partial: true });
      const { evalRuns, openPartialEval } = await import("./eval-runs");
      while ((await evalRuns()).find((r) => r.id === started.id)!.done < 4) await new Promise((resolve) => setTimeout(resolve, 50));
      run = await openPartialEval(started.id);
    } else {
      expect(cancelling).toMatchObject({ state: "running", cancelling: true });
      run = (await finished(started.id))!;
    }
    expect(run).toMatchObject({ state: "cancelled", partial: true, done: 4, passed: 4, total: 12 });
    expect(held()).toBe(4);
    const cases = JSON.parse(fs.readFileSync(path.join(runsRoot, run.runRel!, "cases.json"), "utf8")) as { partial: boolean; trials: unknown[] };
    expect(cases).toMatchObject({ partial: true });
    expect(cases.trials).toHaveLength(4);
    const env = JSON.parse(fs.readFileSync(path.join(runsRoot, run.runRel!, "env.json"), "utf8")) as { partial: boolean };
    expect(env.partial).toBe(true);

    const resumed = await resumeEval(started.id);
    expect(resumed).toMatchObject({ state: "running", done: 4 });
    const done = await finished(started.id);
    expect(done).toMatchObject({ state: "done", done: 12, total: 12, partial: false });
    expect(held()).toBe(12);
    const all = JSON.parse(fs.readFileSync(path.join(runsRoot, done!.runRel!, "cases.json"), "utf8")) as { trials: { case: string; trial: number }[] };
    expect(all.trials.map((t) => `${t.case}${t.trial}`)).toEqual(["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3", "d1", "d2", "d3"]);
  }, 60_000);

  it("refuses a suite that is not listed, and an invalid one", async () => {
    expect((await refusal("source:../../etc/x.eval.yaml")).message).toMatch(/No eval suite/);
    expect((await refusal("source:suites/broken.eval.yaml")).message).toMatch(/key cases/);
    expect((await refusal("source:suites/demo.eval.yaml", { models: ["nope"] })).message).toMatch(/No model named "nope"/);
  });

  it("lists a suite whose judge settings lack as not loading, naming file, case and key, and refuses to start it", async () => {
    const { evalsOverview } = await import("./eval-runs");
    const listing = (await evalsOverview()).suites.find((s) => s.key === "source:suites/judged.eval.yaml");
    expect(listing?.error).toBe('suites/judged.eval.yaml: case 1 "polite", key expect.answer.model: no model named "nobody" in settings llms (known: offline)');
    expect(await refusal("source:suites/judged.eval.yaml")).toMatchObject({ status: 400, message: listing!.error });
  });
});
