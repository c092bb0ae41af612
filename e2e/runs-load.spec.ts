/**
 * The runs browser under load, against the built server: `?root=` may only name allowed roots
 * (issue #14.3), and while a big run is read (list and run page, cold), other requests still
 * answer promptly (#14.2, #15.5). The big matrix is generated into the runs.extraRoots folder
 * that playwright.config.ts allows.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type APIRequestContext, expect, test } from "@playwright/test";
import { bigMatrix } from "../lib/testing/big-matrix";

const REL = "BIG-1/sweep/2026-06-01T00-00-00";
const CELLS = 60_000;

function extraRoot(): string {
  const dir = path.join(process.env.E2E_STATE as string, "runs");
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

test.describe("root overrides over HTTP", () => {
  let outside: string;
  let link: string;
  test.beforeAll(() => {
    outside = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-outside-"));
    fs.mkdirSync(path.join(outside, "run"));
    fs.writeFileSync(path.join(outside, "run", "env.json"), JSON.stringify({ secret: "outside-the-runs-root" }));
    link = path.join(fs.mkdtempSync(path.join(extraRoot(), "links-")), "to-outside");
    fs.symlinkSync(outside, link);
  });
  test.afterAll(() => {
    fs.rmSync(outside, { recursive: true, force: true });
    fs.rmSync(path.dirname(link), { recursive: true, force: true });
  });

  test("a root outside runsRoot and runs.extraRoots is 403 with a way to allow it", async ({ request }) => {
    for (const root of ["/", outside, link, `${extraRoot()}/../..`]) {
      const list = await request.get(`/api/runs?${q({ root })}`);
      expect(list.status(), root).toBe(403);
      const body = (await list.json()) as { error: string; code: string; runs: unknown[] };
      expect(body.code).toBe("root_not_allowed");
      expect(body.error).toContain("runs.extraRoots");
      expect(body.runs).toEqual([]);

      const file = await request.get(`/api/runs/file?${q({ root, path: path.relative(root, path.join(outside, "run/env.json")) })}`);
      expect(file.status(), root).toBe(403);
      expect(await file.text()).not.toContain("outside-the-runs-root");

      const page = await request.get(`/runs/view?${q({ root, path: "run" })}`);
      const html = await page.text();
      expect(html).toContain("is not allowed");
      expect(html).not.toContain("outside-the-runs-root");

      const cells = await request.get(`/api/runs/cells?${q({ root, path: "run", page: "1" })}`);
      expect(cells.status(), root).toBe(403);
    }
  });

  test("runsRoot itself, an extra root and a folder inside one are allowed", async ({ request }) => {
    const fixtures = path.resolve("e2e/fixtures/runs");
    expect((await request.get(`/api/runs?${q({ root: fixtures })}`)).status()).toBe(200);
    expect((await request.get(`/api/runs?${q({ root: `${fixtures}/ROCM-123` })}`)).status()).toBe(200);
    expect((await request.get(`/api/runs?${q({ root: extraRoot() })}`)).status()).toBe(200);
  });
});

test.describe("a 60,000-cell matrix from a producer that records fewer fields", () => {
  // Fields of the reader's spec that no cell has: each would be listed once per cell.
  const OMITTED = [
    "std_step_time_ms",
    "min_step_time_ms",
    "max_step_time_ms",
    "p50_step_time_ms",
    "p90_step_time_ms",
    "p99_step_time_ms",
    "mean_wall_clock_sec",
    "step_time_source",
    "exit_status_counts",
    "outcome_counts",
    "failure_hints",
    "trial_paths",
    "resolved_env_vars",
    "error_rate",
    "confound",
  ];
  let root: string;
  test.beforeAll(() => {
    root = fs.mkdtempSync(path.join(extraRoot(), "missing-"));
    bigMatrix(path.join(root, REL), CELLS, 1, { omit: OMITTED });
  });
  test.afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  test("the run page summarises the missing fields per key, and its HTML stays under 2 MB", async ({ request }) => {
    test.setTimeout(180_000);
    const view = await request.get(`/runs/view?${q({ root, path: REL })}`, { timeout: 170_000 });
    expect(view.status()).toBe(200);
    const html = await view.text();
    expect(html).toContain("60,000 cells");
    expect(html).toContain("min_step_time_ms: missing in 60,000 of 60,000 cells");
    expect(html).not.toContain("cells[59999].min_step_time_ms");
    expect(Buffer.byteLength(html), "run page HTML bytes").toBeLessThan(2 * 1024 * 1024);
  });

  test("the comparison of two such runs stays under 2 MB of HTML too, and says how many cells it left out", async ({ request }) => {
    test.setTimeout(180_000);
    const compared = await request.get(`/runs/compare?${q({ root, a: REL, b: REL })}`, { timeout: 170_000 });
    expect(compared.status()).toBe(200);
    const html = await compared.text();
    expect(html).toContain("60,000 matched by name");
    expect(Buffer.byteLength(html), "compare page HTML bytes").toBeLessThan(2 * 1024 * 1024);
  });
});

test.describe("a 60,000-cell matrix", () => {
  let root: string;
  let bytes = 0;
  test.beforeAll(() => {
    root = fs.mkdtempSync(path.join(extraRoot(), "load-"));
    bytes = bigMatrix(path.join(root, REL), CELLS, 60);
  });
  test.afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  /** Probes GET /api/tools every 100 ms until `work` settles; returns the work's result and the probes' latencies (printed as figures, never asserted). */
  async function probeWhile<T>(request: APIRequestContext, work: Promise<T>): Promise<{ result: T; latencies: number[] }> {
    let done = false;
    const settled = work.finally(() => {
      done = true;
    });
    const latencies: number[] = [];
    while (!done) {
      const started = performance.now();
      expect((await request.get("/api/tools")).ok()).toBe(true);
      latencies.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 100));
    }
    return { result: await settled, latencies };
  }

  test("the list and the run page load it off the request thread, once, with bounded HTML", async ({ playwright, request }) => {
    test.setTimeout(180_000);
    expect(bytes).toBeGreaterThan(50 * 1024 * 1024);
    // A second client, so the probe does not queue behind the slow requests on one connection.
    const slow = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
    try {
      const cold = await probeWhile(request, Promise.all([slow.get(`/runs?${q({ root })}`), slow.get(`/runs/view?${q({ root, path: REL })}`)]));
      const [list, view] = cold.result;
      expect(list.status()).toBe(200);
      expect(await list.text()).toContain(REL);
      expect(view.status()).toBe(200);
      const html = await view.text();
      expect(html).toContain("60,000 cells");
      expect(Buffer.byteLength(html), "run page HTML bytes").toBeLessThan(2 * 1024 * 1024);
      console.log(`runs-load: ${(bytes / 1024 / 1024).toFixed(0)} MB matrix; GET /api/tools while loading (ms): ${cold.latencies.map(Math.round).join(", ")}`);
      // Not blocked: other requests are answered, one after another, while the big run is still being
      // read (a parse on the request thread would hold the first probe until the read ends).
      expect(cold.latencies.length, "probes answered while loading").toBeGreaterThan(2);

      // Every page of cells is served from the cached view, page 59 included.
      const last = await request.get(`/api/runs/cells?${q({ root, path: REL, page: "59" })}`);
      expect(last.status()).toBe(200);
      expect(((await last.json()) as { rows: unknown[][] }).rows).toHaveLength(1000);
      expect((await request.get(`/api/runs/cells?${q({ root, path: REL, page: "60" })}`)).status()).toBe(404);
    } finally {
      await slow.dispose();
    }
  });

  test("comparing the big run reads it off the request thread too", async ({ playwright, request }) => {
    test.setTimeout(180_000);
    const slow = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
    try {
      const compared = await probeWhile(request, slow.get(`/runs/compare?${q({ root, a: REL, b: REL })}`));
      expect(compared.result.status()).toBe(200);
      expect(await compared.result.text()).toContain("Compare runs");
      expect(compared.latencies.length, "probes answered while comparing").toBeGreaterThan(2);
    } finally {
      await slow.dispose();
    }
  });
});

// The table's paging needs no 50 MB matrix: 9,000 cells are the first page in the HTML and eight
// more fetched four at a time, two batches, as 60,000 would be (which took the browser 46 s).
test.describe("a 9,000-cell run's table", () => {
  let root: string;
  test.beforeAll(() => {
    root = fs.mkdtempSync(path.join(extraRoot(), "table-"));
    bigMatrix(path.join(root, REL), 9_000, 1);
  });
  test.afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  test("the run page fetches the remaining cells into the table", async ({ page }) => {
    await page.goto(`/runs/view?${q({ root, path: REL })}`);
    await expect(page.getByTestId("cells-count")).toHaveText("9,000 cells");
    await expect(page.getByTestId("cells-loading")).toHaveCount(0);
  });
});
