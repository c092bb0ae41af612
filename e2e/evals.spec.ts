// Evals end to end on a server of its own (a temp source root with a suite, a temp runs root, so
// the results never land in the tree): start on /evals, watch it, open the run, compare two runs.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { EvalsPage } from "./pages/evals";
import { startOwnServer, type OwnServer } from "./pages/next-server";
import { ComparePage, RunPage, RunsListPage } from "./pages/runs";
import { shotPath } from "./pages/shots";

let server: OwnServer;

test.beforeAll(async () => {
  server = await startOwnServer("e2e-evals", (state) => {
    const sourceRoot = path.join(state, "src");
    fs.mkdirSync(sourceRoot);
    fs.writeFileSync(path.join(sourceRoot, "notes.txt"), "alpha\nbeta\n");
    // "slowly" makes the offline model stream its answer slowly: the eval is seen running for a few seconds.
    fs.writeFileSync(
      path.join(sourceRoot, "demo.eval.yaml"),
      `name: demo
matrix: { models: [offline], modes: [native], trials: 3 }
cases:
  - name: read-notes
    prompt: read notes.txt slowly
    expect: { calls: [{ tool: read_file, args: { path: notes.txt } }] }
  - name: count-alpha
    prompt: read notes.txt slowly
    expect: { calls: [{ tool: grep_code, args: { pattern: alpha } }] }
`,
    );
    return JSON.stringify({ sourceRoot, runsRoot: path.join(state, "runs") });
  });
});

test.afterAll(async () => {
  await server?.stop();
});

async function shots(page: import("@playwright/test").Page, name: string) {
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => document.documentElement.classList.toggle("dark", t === "dark"), theme);
    await page.screenshot({ path: shotPath(`${name}-${theme}.png`), fullPage: true });
  }
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
}

test("start an eval on /evals, watch it, open the run (a cell per mode), follow a failing case to its chat, compare two runs", async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const evals = new EvalsPage(page);
  await evals.goto(server.origin);
  await expect(page.getByTestId("nav-evals")).toHaveAttribute("aria-current", "page");
  await expect(evals.suite("demo")).toContainText("demo.eval.yaml");
  await expect(evals.suite("builtins")).toContainText("examples/evals/builtins.eval.yaml");

  await evals.start("demo", "both");
  const first = evals.runs.first();
  await expect(first).toHaveAttribute("data-state", "running");
  // Part-way: some trials done, not all (the page polls while it runs).
  await expect(first.getByTestId("eval-progress")).toContainText(/^([1-9]|1[01])\/12 trials/);
  await shots(page, "evals-page-running");
  await expect(first).toHaveAttribute("data-state", "done", { timeout: 120_000 });
  await expect(first.getByTestId("eval-progress")).toContainText("12/12 trials");
  await expect(first.getByTestId("eval-progress")).toContainText("✓ 6");
  await expect(first.getByTestId("eval-cells")).toContainText("offline · native 50%");
  await shots(page, "evals-page");

  await first.getByTestId("eval-result-link").click();
  await expect(page).toHaveURL(/\/runs\/view\?path=evals%2Fdemo%2F/);
  const run = new RunPage(page);
  // An eval's case grid stands in for the harness heat map; its cells are still listed, for their failing cases.
  await expect(run.page.getByTestId("grid-column")).toHaveText([/^offline · native/, /^offline · text · json/]);
  await expect(run.page.getByTestId("heat-tile")).toHaveCount(0);
  await run.cellRow("offline · text · json").click();
  await expect(run.cellDetails.getByTestId("cell-hints")).toContainText("called read_file instead of grep_code ×3");
  const failing = run.cellDetails.getByTestId("cell-failing-cases");
  await expect(failing.getByRole("link")).toHaveCount(3);
  await shots(page, "eval-run");

  await failing.getByRole("link").first().click();
  await expect(page).toHaveURL(/\/chat\/eval-/);
  await expect(page.getByText("read notes.txt").first()).toBeVisible();

  // A second run of the same suite, then the two side by side.
  await evals.goto(server.origin);
  await evals.start("demo", "both");
  await expect(evals.runs).toHaveCount(2);
  await expect(evals.runs.first()).toHaveAttribute("data-state", "done", { timeout: 120_000 });
  const list = new RunsListPage(page);
  await page.goto(`${server.origin}/runs`);
  const rels = await list.rows.evaluateAll((rows) => rows.map((r) => r.getAttribute("data-rel") ?? "").filter((rel) => rel.startsWith("evals/demo/")));
  expect(rels).toHaveLength(2);
  await list.pick(rels[0]!);
  await list.pick(rels[1]!);
  await list.compareButton.click();
  const compare = new ComparePage(page);
  await expect(compare.row("offline · native")).toBeVisible();
  await expect(compare.row("offline · text · json")).toBeVisible();
  await shots(page, "eval-compare");
});
