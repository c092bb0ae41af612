import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ComparePage, RunPage, RunsListPage, screenshots } from "./pages/runs";

const A = "ROCM-123/fsdp/2026-04-28T14-12-03";
const B = "ROCM-123/fsdp/2026-05-02T09-30-00";
const BROKEN = "ROCM-789/allreduce/2026-05-03T10-00-00";
const DASHBOARD = "dashboard/runs/2026-10-09T141446-37929907291";

/** The runs.extraRoots folder playwright.config.ts allows for ?root= overrides. */
function extraRoot(): string {
  const dir = path.join(process.env.E2E_STATE as string, "runs");
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** A generated triage run with `n` cells, in a folder of its own (opened through ?root=). */
function bigRun(n: number): string {
  const root = fs.mkdtempSync(path.join(extraRoot(), "big-"));
  const dir = path.join(root, "BIG-1", "sweep", "2026-06-01T00-00-00");
  fs.mkdirSync(dir, { recursive: true });
  const cells = Array.from({ length: n }, (_, i) => ({
    name: `cell_${String(i).padStart(4, "0")}`,
    trials: 4,
    passed_count: i % 7 === 0 ? 2 : 4,
    failed_count: i % 7 === 0 ? 2 : 0,
    error_count: 0,
    failure_rate: i % 7 === 0 ? 0.5 : 0,
    error_rate: 0,
    unreliable: i % 11 === 0,
    mean_step_time_ms: 40 + (i % 13),
    step_time_ratio: i === 0 ? 1 : 1 + ((i % 13) - 6) / 40,
    exit_status_counts: { ok: 4 },
    failure_hints: [],
    error: null,
    mitigations: [`m${i % 5}`],
    environment: "rocm7",
  }));
  fs.writeFileSync(path.join(dir, "matrix.json"), JSON.stringify({ schema_version: 1, workload: "sweep", ticket: "BIG-1", baseline_cell: "cell_0000", cells }));
  return root;
}

test("the runs list shows every fixture run, filters with / and flags the malformed one", async ({ page }) => {
  const list = new RunsListPage(page);
  await list.goto();
  await expect(page.getByTestId("runs-root")).toContainText("e2e/fixtures/runs");
  await expect(list.rows).toHaveCount(8);
  await expect(list.row(A).getByTestId("verdict-badge")).toHaveAttribute("data-tone", "fail");
  await expect(list.row(A).getByTestId("partial-env")).toBeVisible();
  await expect(list.row(`${DASHBOARD}/waitcheck`).getByTestId("verdict-badge")).toHaveAttribute("data-tone", "warn");
  await expect(list.row(BROKEN).getByTestId("run-error-flag")).toHaveAttribute("title", /matrix\.json:8:19/);
  // Newest first by default; cells right-aligned.
  await expect(list.rows.first()).toHaveAttribute("data-rel", new RegExp(`^${DASHBOARD}`));

  await page.keyboard.press("/");
  await expect(list.search).toBeFocused();
  await page.keyboard.type("fsdp");
  await expect(list.rows).toHaveCount(2);
  await page.getByTestId("filter-verdict").selectOption("warn");
  await expect(page.getByTestId("runs-empty")).toContainText("No run matches");
  await page.getByTestId("filter-verdict").selectOption("");
  await list.search.fill("");

  const refreshed = page.waitForResponse((r) => r.url().includes("/api/runs?fresh=1") && r.ok());
  await page.getByTestId("runs-refresh").click();
  await refreshed;
  await expect(list.rows).toHaveCount(8);
  await screenshots(page, "list");
});

test("a run page: heat-map metrics, a failing cell's trials, the environment tree and raw files", async ({ page }) => {
  const list = new RunsListPage(page);
  const run = new RunPage(page);
  await list.goto();
  await list.open(A);

  await expect(page.getByTestId("run-facts")).toContainText("ROCM-123");
  await expect(run.heatMap).toHaveAttribute("data-metric", "failure");
  await expect(run.tile("tf32_off")).toHaveAttribute("data-state", "bad");
  await expect(run.tile("baseline")).toHaveAttribute("data-state", "good");
  // hand_written recorded no failure_rate: "not recorded", not 0.
  await expect(run.tile("hand_written")).toHaveAttribute("data-state", "missing");
  await expect(run.tile("hand_written")).toContainText("not recorded");

  await run.metric("ratio");
  await expect(run.tile("baseline")).toHaveAttribute("data-state", "neutral");
  await expect(run.tile("tf32_off")).toContainText("1.04×");
  await expect(run.tile("docker_broken")).toHaveAttribute("data-state", "missing");
  await run.metric("error");
  await expect(run.tile("hand_written")).toHaveAttribute("data-state", "bad");
  await run.metric("failure");

  await run.cellRow("tf32_off").click();
  await expect(run.cellDetails).toHaveCount(1);
  await expect(run.cellDetails.getByTestId("cell-hints")).toContainText("NaN in grad");
  await expect(run.cellDetails.getByTestId("cell-exit-statuses")).toContainText("workload_failed 3");
  await expect(run.cellDetails.getByTestId("cell-trials")).toContainText("cells/tf32_off/trial_0/result.json");
  // A tile opens its cell in the table.
  await run.tile("docker_broken").click();
  await expect(page.getByTestId("cell-error")).toContainText("docker pull failed");

  await expect(page.getByTestId("env-tab")).toHaveCount(3);
  await expect(page.getByTestId("env-facts").first()).toContainText("7.0.2");
  await run.envSearch.first().fill("gfx942");
  await expect(page.locator('[data-testid="env-node"][data-path="gpu_arch.gfx_targets[0]"]').first()).toBeVisible();

  await run.file("matrix.json").getByTestId("file-view").click();
  await expect(run.file("matrix.json").getByTestId("file-content")).toContainText('"baseline_cell": "baseline"');
  await expect(run.file("matrix.json").getByTestId("file-download")).toHaveAttribute("href", /download=1/);
  await run.cellRow("tf32_off").scrollIntoViewIfNeeded();
  await screenshots(page, "run");
});

test("comparing two runs shows coloured deltas, one-sided cells and the environment diff", async ({ page }) => {
  const list = new RunsListPage(page);
  await list.goto();
  await expect(list.compareButton).toBeDisabled();
  await list.pick(A);
  await list.pick(B);
  await list.compareButton.click();
  await expect(page.getByRole("heading", { level: 1, name: "Compare runs" })).toBeVisible();

  const cmp = new ComparePage(page);
  await expect(cmp.row("tf32_off").getByTestId("delta-failure")).toHaveText("+25.0 pp");
  await expect(cmp.row("tf32_off").getByTestId("delta-failure")).toHaveAttribute("data-tone", "worse");
  await expect(cmp.row("tf32_off").getByTestId("delta-step")).toHaveAttribute("data-tone", "worse");
  await expect(cmp.row("baseline").getByTestId("delta-step")).toHaveAttribute("data-tone", "better");
  await expect(page.getByTestId("only-in-a")).toContainText("hand_written");
  await expect(page.getByTestId("only-in-b")).toContainText("sdma_off");
  await expect(cmp.envDiff("rocm.version")).toHaveAttribute("data-kind", "changed");
  await expect(cmp.envDiff("rocm.version")).toContainText("7.1.0");
  await expect(cmp.envDiff("host.hostname")).toHaveAttribute("data-kind", "added");
  await expect(cmp.envDiff("host.machine")).toHaveAttribute("data-kind", "removed");
  await screenshots(page, "compare");
});

test("a malformed matrix.json shows its error (file and line:col) while the rest of the run still shows", async ({ page }) => {
  const run = new RunPage(page);
  await run.goto(BROKEN);
  await expect(run.errors).toContainText(`${BROKEN}/matrix.json:8:19`);
  await expect(page.getByTestId("matrix-error")).toContainText("expected a property name");
  await expect(page.getByTestId("env-facts")).toContainText("7.1.0");
  await run.file("matrix.json").getByTestId("file-view").click();
  await expect(run.file("matrix.json").getByTestId("file-content")).toContainText("Not valid JSON");
  await screenshots(page, "malformed");
});

test("a dashboard run lists its cases; a case shows grouped sanitizer findings", async ({ page }) => {
  const run = new RunPage(page);
  await run.goto(DASHBOARD);
  await expect(page.getByTestId("child-run-link")).toHaveCount(3);
  await page.getByTestId("child-run-link").filter({ hasText: "waitcheck" }).click();
  await expect(page.getByTestId("findings-section")).toContainText("64 findings");
  await expect(page.getByTestId("finding-group").first()).toBeVisible();
  await expect(page.getByTestId("env-facts")).toContainText("observed.verdict");
  await screenshots(page, "dashboard");
});

test("the root override: a missing folder is an error; a 5,000-cell run renders with a bounded table", async ({ page }) => {
  const list = new RunsListPage(page);
  await list.goto();
  await list.overrideRoot(path.join(extraRoot(), "no-such-folder"));
  await expect(page.getByTestId("root-error")).toContainText("no-such-folder does not exist");
  await list.overrideRoot("/etc");
  await expect(page.getByTestId("root-error")).toContainText("is not allowed");

  const root = bigRun(5000);
  try {
    await list.goto(root);
    await expect(list.rows).toHaveCount(1);
    const run = new RunPage(page);
    await list.open("BIG-1/sweep/2026-06-01T00-00-00");
    await expect(page.getByTestId("cells-count")).toHaveText("5,000 cells");
    await expect(page.getByTestId("heat-tile")).toHaveCount(5000);
    // Virtualized: the DOM holds a screenful of rows, not 5,000.
    expect(await run.cellRows.count()).toBeLessThan(80);
    await page.getByTestId("cell-table").evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect(run.cellRow("cell_4999")).toBeVisible();
    expect(await run.cellRows.count()).toBeLessThan(80);
    // A tile far down the map opens and scrolls to its cell.
    await run.tile("cell_2800").click();
    await expect(run.cellRow("cell_2800")).toBeVisible();
    await expect(run.cellDetails).toHaveCount(1);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("the raw-file route serves only artifact files inside the runs root", async ({ request }) => {
  const ok = await request.get(`/api/runs/file?path=${encodeURIComponent("ROCM-456/matrix.json")}`);
  expect(ok.status()).toBe(200);
  expect(ok.headers()["content-type"]).toContain("application/json");
  const down = await request.get(`/api/runs/file?path=${encodeURIComponent(`${A}/environments/rocm6/env.json`)}&download=1`);
  expect(down.headers()["content-disposition"]).toContain("attachment");

  for (const [p, status, message] of [
    ["../toolroom.e2e.yaml", 403, "Only run artifact files"],
    ["../../../package.json", 403, "Only run artifact files"],
    ["../../../e2e/fixtures/runs/ROCM-456/../../../../lib/x/matrix.json", 403, "escapes the runs root"],
    ["/etc/passwd", 403, "Only run artifact files"],
    ["ROCM-456/nothing/matrix.json", 404, "No such file"],
  ] as const) {
    const r = await request.get(`/api/runs/file?path=${encodeURIComponent(p)}`);
    expect(r.status(), p).toBe(status);
    expect(((await r.json()) as { error: string }).error, p).toContain(message);
  }
  const noPath = await request.get("/api/runs/file");
  expect(noPath.status()).toBe(400);
  const badRoot = await request.get(`/api/runs/file?root=${encodeURIComponent(path.join(extraRoot(), "no-such"))}&path=matrix.json`);
  expect(badRoot.status()).toBe(400);

  const listed = await request.get("/api/runs");
  expect(((await listed.json()) as { runs: unknown[] }).runs).toHaveLength(8);
});
