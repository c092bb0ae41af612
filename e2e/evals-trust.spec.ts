// Evals from a source root someone else wrote, against the built server (issues #28.1, #28.4, #29.2):
// an untrusted suite that would load its own plugin is refused 403 with the settings line that
// trusts it (the plugin is never imported); a run above evals.maxTrials is refused with the number;
// a server killed with SIGKILL mid-eval shows the eval as interrupted after a restart, with the
// trials that finished, which open as a partial run or resume to the end.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { EvalsPage } from "./pages/evals";
import { NextServer, ownState, type OwnState } from "./pages/next-server";
import { freePort, rawRequest } from "./pages/security-http";
import { shotPath } from "./pages/shots";

let state: OwnState;
let runsRoot: string;
let marker: string;

test.beforeAll(() => {
  state = ownState("evals-trust", (dir) => {
    const sourceRoot = path.join(dir, "src");
    runsRoot = path.join(dir, "runs");
    marker = path.join(dir, "evil-imported");
    const plugin = path.join(sourceRoot, "evilplugin");
    fs.mkdirSync(plugin, { recursive: true });
    fs.writeFileSync(path.join(sourceRoot, "notes.txt"), "alpha\n");
    fs.writeFileSync(
      path.join(plugin, "package.json"),
      JSON.stringify({ name: "evilplugin", version: "1.0.0", type: "module", toolroom: { tools: { x: "./x.js#x" } } }),
    );
    fs.writeFileSync(path.join(plugin, "x.js"), `import fs from "node:fs";\nfs.writeFileSync(${JSON.stringify(marker)}, "imported");\nexport const x = {};\n`);
    fs.writeFileSync(
      path.join(sourceRoot, "evil.eval.yaml"),
      "name: evil\nsettings: { plugins: { paths: [./evilplugin] } }\ncases: [{ name: c, prompt: hi }]\n",
    );
    fs.writeFileSync(
      path.join(sourceRoot, "shell.eval.yaml"),
      'name: shell\nsettings: { tools: { run_terminal_command: { enabled: true, allowedCommands: [sh] } } }\ncases: [{ name: c, prompt: \'run_terminal_command {"command": "sh -c id"}\', confirm: approve }]\n',
    );
    fs.writeFileSync(
      path.join(sourceRoot, "huge.eval.yaml"),
      "name: huge\nmatrix: { models: [offline, offline], trials: 1000 }\ncases: [{ name: a, prompt: hi }, { name: b, prompt: hi }, { name: c, prompt: hi }, { name: d, prompt: hi }, { name: e, prompt: hi }, { name: f, prompt: hi }]\n",
    );
    // "slowly": the offline model streams its answer slowly, so the server can be killed mid-run.
    fs.writeFileSync(
      path.join(sourceRoot, "slow.eval.yaml"),
      "name: slow\nmatrix: { trials: 12 }\ncases: [{ name: read, prompt: read notes.txt slowly, expect: { calls: [{ tool: read_file }] } }]\n",
    );
    return JSON.stringify({ sourceRoot, runsRoot });
  });
});

test.afterAll(() => state?.remove());

function postJson(server: NextServer, url: string, body?: unknown) {
  return rawRequest(`${server.origin}${url}`, {
    method: "POST",
    headers: { Origin: server.origin, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

interface Run {
  id: string;
  suite: string;
  state: string;
  done: number;
  total: number;
  runRel: string | null;
  partial: boolean;
}

async function runs(server: NextServer): Promise<Run[]> {
  const res = await rawRequest(`${server.origin}/api/evals`);
  expect(res.status, res.body.slice(0, 300)).toBe(200);
  return (JSON.parse(res.body) as { runs: Run[] }).runs;
}

async function until(server: NextServer, id: string, ok: (run: Run) => boolean, what: string): Promise<Run> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const run = (await runs(server)).find((r) => r.id === id);
    if (run && ok(run)) return run;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}: ${JSON.stringify(run)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test("untrusted suites are refused with the trusting line; a huge run is refused with its size; a killed eval comes back interrupted, opens partial and resumes", async ({
  page,
}) => {
  test.setTimeout(240_000);
  let server = new NextServer(await freePort(), state.env);
  try {
    await server.ready();
    const listed = JSON.parse((await rawRequest(`${server.origin}/api/evals`)).body) as {
      suites: { key: string; trusted: boolean; asks: { plugins: string[] } | null }[];
    };
    expect(listed.suites.find((s) => s.key === "source:evil.eval.yaml")).toMatchObject({ trusted: false, asks: { plugins: ["./evilplugin"] } });

    const evil = await postJson(server, "/api/evals", { suite: "source:evil.eval.yaml" });
    expect(evil.status, evil.body).toBe(403);
    expect(JSON.parse(evil.body).error).toContain('evals: { trusted: ["evil.eval.yaml"] }');
    const shell = await postJson(server, "/api/evals", { suite: "source:shell.eval.yaml" });
    expect(shell.status, shell.body).toBe(403);
    expect(JSON.parse(shell.body).error).toMatch(/configures the tool run_terminal_command.*approves without a person: case c: confirm approve/);
    expect(fs.existsSync(marker)).toBe(false);

    const huge = await postJson(server, "/api/evals", { suite: "source:huge.eval.yaml" });
    expect(huge.status, huge.body).toBe(400);
    expect(JSON.parse(huge.body).error).toContain("would run 6,000 trials, above the limit of 5,000");

    const started = await postJson(server, "/api/evals", { suite: "source:slow.eval.yaml" });
    expect(started.status, started.body).toBe(202);
    const { id } = (JSON.parse(started.body) as { run: Run }).run;
    const before = await until(server, id, (r) => r.done >= 2, "two trials to finish");
    expect(before.state).toBe("running");
    await server.kill("SIGKILL");

    server = new NextServer(await freePort(), state.env);
    await server.ready();
    const interrupted = (await runs(server)).find((r) => r.id === id)!;
    expect(interrupted).toMatchObject({ state: "interrupted", total: 12, runRel: null });
    expect(interrupted.done).toBeGreaterThanOrEqual(before.done);
    expect(interrupted.done).toBeLessThan(12);

    await page.setViewportSize({ width: 1280, height: 900 });
    const evals = new EvalsPage(page);
    await evals.goto(server.origin);
    const row = evals.runs.first();
    await expect(row).toHaveAttribute("data-state", "interrupted");
    await expect(row.getByTestId("eval-interrupted")).toContainText(`${interrupted.done} trial`);
    await expect(evals.suite("evil").getByTestId("eval-suite-trust")).toHaveAttribute("data-blocked", "true");
    await expect(evals.suite("evil").getByTestId("eval-start")).toBeDisabled();
    for (const theme of ["light", "dark"] as const) {
      await page.evaluate((t) => document.documentElement.classList.toggle("dark", t === "dark"), theme);
      await page.screenshot({ path: shotPath(`evals-interrupted-${theme}.png`), fullPage: true });
    }
    await page.evaluate(() => document.documentElement.classList.remove("dark"));

    // Opened as it is: a run in Runs, marked partial, with just the trials that finished.
    await row.getByTestId("eval-partial").click();
    await expect(row.getByTestId("eval-result-link")).toContainText("partial result");
    const partial = (await runs(server)).find((r) => r.id === id)!;
    expect(partial).toMatchObject({ state: "interrupted", partial: true });
    const cases = JSON.parse(fs.readFileSync(path.join(runsRoot, partial.runRel!, "cases.json"), "utf8")) as { partial: boolean; trials: unknown[] };
    expect(cases.partial).toBe(true);
    expect(cases.trials).toHaveLength(interrupted.done);
    expect(JSON.parse(fs.readFileSync(path.join(runsRoot, partial.runRel!, "env.json"), "utf8")).partial).toBe(true);

    // Resumed: only the missing trials run, to the end.
    await row.getByTestId("eval-resume").click();
    const done = await until(server, id, (r) => r.state !== "running", "the resumed eval to end");
    expect(done).toMatchObject({ state: "done", done: 12, total: 12, partial: false });
    const all = JSON.parse(fs.readFileSync(path.join(runsRoot, done.runRel!, "cases.json"), "utf8")) as { trials: { trial: number }[] };
    expect(all.trials.map((t) => t.trial)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  } finally {
    await server.kill("SIGTERM");
  }
});
