// The per-case picture of an eval run on a server of its own (temp source root and runs root):
// run a suite from /evals with the offline model, open the case grid, a failing case's diff and
// its chat, then run the suite again after a case changed and see the regression on Compare; and a
// run made by `toolroom eval` on the command line (no database: no chat), whose trials open as the
// transcripts its run folder keeps.
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { writeEvalRun } from "../lib/evals/results";
import type { TrialRecord } from "../lib/evals/runner";
import { runToolroom } from "../lib/testing/cli";
import { EvalRunPage, EvalsPage } from "./pages/evals";
import { startOwnServer, type OwnServer } from "./pages/next-server";
import { RunsListPage } from "./pages/runs";
import { shotPath } from "./pages/shots";

let server: OwnServer;
let suiteFile: string;
let runsRoot: string;

const suite = (expectedPath: string) => `name: grid
matrix: { models: [offline], modes: [native], trials: 2 }
cases:
  - name: read-notes
    prompt: read notes.txt
    expect: { calls: [{ tool: read_file, args: { path: ${expectedPath} } }] }
  - name: grep-alpha
    prompt: read notes.txt
    expect: { calls: [{ tool: grep_code, args: { pattern: alpha } }] }
`;

test.beforeAll(async () => {
  server = await startOwnServer("e2e-evals-grid", (state) => {
    const sourceRoot = path.join(state, "src");
    fs.mkdirSync(sourceRoot);
    fs.writeFileSync(path.join(sourceRoot, "notes.txt"), "alpha\nbeta\n");
    suiteFile = path.join(sourceRoot, "grid.eval.yaml");
    fs.writeFileSync(suiteFile, suite("notes.txt"));
    runsRoot = path.join(state, "runs");
    return JSON.stringify({ sourceRoot, runsRoot });
  });
});

test.afterAll(async () => {
  await server?.stop();
});

async function shots(page: Page, name: string) {
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => document.documentElement.classList.toggle("dark", t === "dark"), theme);
    await page.screenshot({ path: shotPath(`${name}-${theme}.png`), fullPage: true });
  }
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
}

test("the case grid of an eval run, a failing case's argument diff and chat, and a regression between two runs", async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const evals = new EvalsPage(page);
  await evals.goto(server.origin);
  await expect(evals.suite("grid").getByTestId("eval-cost-estimate")).toContainText("no pricing");
  await evals.start("grid", "both");
  await expect(evals.runs.first()).toHaveAttribute("data-state", "done", { timeout: 120_000 });

  await page.goto(`${server.origin}/runs`);
  const list = new RunsListPage(page);
  const firstRel = (
    await list.rows.evaluateAll((rows) => rows.map((r) => r.getAttribute("data-rel") ?? "").filter((rel) => rel.startsWith("evals/grid/")))
  )[0]!;
  // The runs list states the eval's pass rate, not "fail".
  await expect(list.row(firstRel).getByTestId("eval-pass-rate")).toHaveText("50% pass");
  await expect(list.row(firstRel).getByTestId("eval-suite")).toHaveText("suite grid");
  await expect(list.row(firstRel).getByTestId("partial-env")).toHaveCount(0);
  // The filters read an eval as an eval: its layout is "eval", its result its pass rate (some trials failed).
  await page.getByTestId("filter-layout").selectOption("eval");
  await page.getByTestId("filter-verdict").selectOption("warn");
  await expect(list.rows).toHaveCount(1);
  await page.getByTestId("filter-verdict").selectOption("pass");
  await expect(list.rows).toHaveCount(0);
  await page.getByTestId("filter-verdict").selectOption("");
  await list.open(firstRel);

  const run = new EvalRunPage(page);
  await expect(run.grid).toBeVisible();
  await expect(page.getByTestId("eval-facts")).toContainText("grid");
  await expect(page.getByTestId("run-facts")).toHaveCount(0);
  await expect(run.square("read-notes", 0)).toHaveText("2/2");
  await expect(run.square("grep-alpha", 1)).toHaveText("0/2");
  await expect(page.getByTestId("column-tokens").first()).toContainText(/\d+ in \/ \d+ out/);
  await expect(run.recommendation.getByTestId("recommendation-lines")).toHaveText(/^llms\.offline: \{ toolMode: (native|text, textProtocol: json) \}$/);
  // The page ends with the recommendation, after the cells and raw files.
  await expect(page.locator("main section").last()).toHaveAttribute("data-testid", "recommendation-section");

  await run.square("grep-alpha", 0).click();
  await expect(run.diff.getByTestId("case-trial")).toHaveCount(2);
  const call = run.diff.getByTestId("diff-call").first();
  await expect(call).toHaveAttribute("data-status", "wrong-tool");
  await expect(call).toContainText("called read_file instead of grep_code");
  await expect(run.diff.getByTestId("trial-trace-link").first()).toBeVisible();
  await shots(page, "eval-grid");

  await run.diff.getByTestId("trial-chat-link").first().click();
  await expect(page).toHaveURL(/\/chat\/eval-/);
  await expect(page.getByText("read notes.txt").first()).toBeVisible();

  // The suite now expects another path: read-notes passed before and fails now.
  fs.writeFileSync(suiteFile, suite("other.txt"));
  await evals.goto(server.origin);
  await evals.start("grid", "both");
  await expect(evals.runs).toHaveCount(2);
  await expect(evals.runs.first()).toHaveAttribute("data-state", "done", { timeout: 120_000 });
  await page.goto(`${server.origin}/runs`);
  const rels = await list.rows.evaluateAll((rows) => rows.map((r) => r.getAttribute("data-rel") ?? "").filter((rel) => rel.startsWith("evals/grid/")));
  expect(rels).toHaveLength(2);
  const secondRel = rels.find((rel) => rel !== firstRel)!;
  await list.pick(firstRel);
  await list.pick(secondRel);
  await list.compareButton.click();
  await expect(page).toHaveURL(/\/runs\/compare\?/);
  // Read from the first run to the second, whichever way the picks were ordered.
  const url = new URL(page.url());
  if (url.searchParams.get("a") !== firstRel) await page.goto(`${server.origin}/runs/compare?${new URLSearchParams({ a: firstRel, b: secondRel })}`);
  const changes = page.getByTestId("eval-changes");
  await expect(changes.getByTestId("eval-changes-warnings")).toContainText("suite file changed");
  await expect(changes.getByTestId("eval-regressed")).toContainText("read-notes");
  await expect(changes.getByTestId("eval-fixed")).toHaveCount(0);
  // Each regressed row says why the case fails now.
  await expect(changes.getByTestId("eval-regressed").getByTestId("eval-change-reason").first()).toContainText("read_file called with path");
  // The cells compare in eval figures, not a harness's step times.
  await expect(page.getByText("Red is worse (a lower pass rate)")).toBeVisible();
  const cells = page.getByTestId("compare-table");
  await expect(cells.locator("thead")).toContainText("Pass A");
  await expect(cells.locator("thead")).toContainText("Tokens / trial B");
  await expect(cells.locator("thead")).not.toContainText("Mean ms");
  await expect(cells.getByTestId("delta-pass")).toHaveText(["−50.0 pp", "−50.0 pp"]);
  await shots(page, "eval-grid-compare");
});

/** A run written as `toolroom eval` writes one, its two cells equal in pass rate and tokens, the model configured for text · json. */
function tiedRun(): string {
  const cells = [
    { name: "offline · native", model: "offline", mode: "native", protocol: null },
    { name: "offline · text · json", model: "offline", mode: "text", protocol: "json" },
  ] as const;
  const trials: TrialRecord[] = cells.map((cell) => ({
    cell: cell.name,
    model: cell.model,
    mode: cell.mode,
    protocol: cell.protocol,
    case: "read-notes",
    trial: 1,
    prompt: "read notes.txt",
    calls: [{ tool: "read_file", input: { path: "notes.txt" }, outcome: "executed" }],
    answer: "alpha",
    steps: 2,
    verdict: "pass",
    reason: null,
    reasons: [],
    latency_ms: 40,
    input_tokens: 300,
    output_tokens: 30,
    chat_id: null,
  }));
  const text = "name: tied\ncases:\n  - { name: read-notes, prompt: read notes.txt, expect: { calls: [{ tool: read_file }] } }\n";
  const env = {
    models: { offline: { provider: "offline", modelId: "scripted", toolMode: "text" as const, textProtocol: "json" } },
    providerVersions: {},
    settingsHash: "x",
    toolroomVersion: "0",
  };
  const run = {
    cells: [...cells],
    trials,
    trialsPerCase: 1,
    total: 2,
    partial: false,
    startedAt: new Date("2026-12-01T10:00:00Z"),
    finishedAt: new Date("2026-12-01T10:00:01Z"),
  };
  const dir = writeEvalRun(
    runsRoot,
    { name: "tied", file: path.join(runsRoot, "tied.eval.yaml"), text, cases: [{ name: "read-notes", expect: { calls: [{ tool: "read_file" }] } }] },
    env,
    run,
  );
  return path.relative(runsRoot, dir);
}

test("a recommendation between cells equal in pass rate and tokens says it is a tie, and keeps the configured one", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const rel = tiedRun();
  await page.goto(`${server.origin}/runs/view?${new URLSearchParams({ path: rel.split(path.sep).join("/") })}`);
  const run = new EvalRunPage(page);
  const rec = run.recommendation.getByTestId("recommendation");
  await expect(rec).toContainText("text mode, json protocol");
  await expect(rec).toContainText("already its configured mode");
  await expect(rec.getByTestId("recommendation-tie")).toHaveText(
    "— a tie with offline · native (same pass rate and tokens a trial): the model's configured one is kept",
  );
  await expect(run.recommendation.getByTestId("recommendation-lines")).toHaveText("llms.offline: { toolMode: text, textProtocol: json }");
  await run.recommendation.scrollIntoViewIfNeeded();
  await shots(page, "eval-recommendation-tie");
});

test("a run made by toolroom eval on the command line: its trials open as the transcripts the run folder keeps", async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const cliSuite = path.join(path.dirname(suiteFile), "cli-grid.eval.yaml");
  fs.writeFileSync(
    cliSuite,
    `name: cli-grid
matrix: { models: [offline], modes: [native, text], trials: 1 }
cases:
  - name: grep-alpha
    prompt: read notes.txt
    expect: { calls: [{ tool: grep_code, args: { pattern: alpha } }] }
`,
  );
  // The server's own settings: the CLI writes into the runs root the server browses.
  const cli = await runToolroom(["--config", server.config, "eval", cliSuite], server.dir);
  expect(cli.stderr).toMatch(/^\[2\/2\] fail /m);
  expect(cli.code).toBe(1);
  const [stamp] = fs.readdirSync(path.join(server.dir, "runs/evals/cli-grid"));
  await page.goto(`${server.origin}/runs/view?${new URLSearchParams({ path: `evals/cli-grid/${stamp}` })}`);

  const run = new EvalRunPage(page);
  await run.square("grep-alpha", 1).click();
  await expect(run.diff.getByTestId("case-trial")).toHaveCount(1);
  // No chat to link to: the transcript instead.
  await expect(run.diff.getByTestId("trial-chat-link")).toHaveCount(0);
  await run.diff.getByTestId("trial-transcript-toggle").click();
  const transcript = run.diff.getByTestId("trial-transcript");
  await expect(transcript.getByTestId("message-user")).toHaveText("read notes.txt");
  const call = transcript.getByTestId("tool-call");
  await expect(call).toHaveAttribute("data-tool", "read_file");
  await expect(call.getByTestId("tool-call-mode")).toHaveText("text · json");
  await call.getByRole("button").first().click();
  await expect(call.getByTestId("tool-call-output")).toContainText("alpha");
  await expect(transcript.getByTestId("transcript-usage")).toContainText(/\d+ \/ \d+/);
  // The whole panel, in a window tall enough for it (the page scrolls inside its main column).
  await page.setViewportSize({ width: 1280, height: 2000 });
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => document.documentElement.classList.toggle("dark", t === "dark"), theme);
    await run.diff.screenshot({ path: shotPath(`eval-cli-transcript-panel-${theme}.png`) });
  }
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
  await page.setViewportSize({ width: 1280, height: 900 });
  // A step opens with its numbers and the raw exchange: the system prompt text mode sent.
  const steps = transcript.getByTestId("transcript-step");
  await expect(steps).toHaveCount(2);
  await steps.first().locator("summary").click();
  await expect(steps.first().getByTestId("step-detail")).toContainText("text · json");
  await expect(steps.first().getByTestId("raw-view")).toContainText("grep_code");
  await shots(page, "eval-cli-transcript");

  // The route's refusals: a trial the run lacks, a web run's trial (its chat holds it), a bad trial number.
  const transcriptOf = (rel: string, q: Record<string, string>) =>
    page.request.get(`${server.origin}/api/runs/eval-transcript?${new URLSearchParams({ path: rel, case: "grep-alpha", ...q })}`);
  const missing = await transcriptOf(`evals/cli-grid/${stamp}`, { cell: "offline · native", trial: "9" });
  expect([missing.status(), ((await missing.json()) as { error: string }).error]).toEqual([404, "No trial 9 of grep-alpha in offline · native in this run."]);
  const [webStamp] = fs.readdirSync(path.join(server.dir, "runs/evals/grid"));
  const web = await transcriptOf(`evals/grid/${webStamp}`, { cell: "offline · native", trial: "1" });
  expect(web.status()).toBe(404);
  expect(((await web.json()) as { error: string }).error).toContain("has no transcript (a run from /evals keeps its chat instead)");
  const bad = await transcriptOf(`evals/cli-grid/${stamp}`, { cell: "offline · native", trial: "0" });
  expect(bad.status()).toBe(400);
});
