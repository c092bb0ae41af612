// The per-case picture of an eval run on a server of its own (temp source root and runs root):
// run a suite from /evals with the offline model, open the case grid, a failing case's diff and
// its chat, then run the suite again after a case changed and see the regression on Compare.
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { EvalRunPage, EvalsPage } from "./pages/evals";
import { startOwnServer, type OwnServer } from "./pages/next-server";
import { RunsListPage } from "./pages/runs";
import { shotPath } from "./pages/shots";

let server: OwnServer;
let suiteFile: string;

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
    return JSON.stringify({ sourceRoot, runsRoot: path.join(state, "runs") });
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
  await shots(page, "eval-grid-compare");
});
