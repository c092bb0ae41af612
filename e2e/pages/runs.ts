import { expect, type Locator, type Page } from "@playwright/test";
import { shotPath } from "./shots";

function query(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
  return q.toString();
}

/** /runs: the table of runs, its filters, the root override and the compare pick. */
export class RunsListPage {
  constructor(readonly page: Page) {}

  async goto(root?: string) {
    await this.page.goto(root ? `/runs?${query({ root })}` : "/runs");
    await expect(this.page.getByRole("heading", { level: 1, name: "Runs" })).toBeVisible();
  }

  get rows(): Locator {
    return this.page.getByTestId("run-row");
  }

  row(rel: string): Locator {
    return this.page.locator(`[data-testid="run-row"][data-rel="${rel}"]`);
  }

  get search(): Locator {
    return this.page.getByTestId("runs-search");
  }

  async open(rel: string) {
    await this.row(rel).getByTestId("run-link").click();
    await expect(this.page.getByTestId("run-path")).toHaveText(rel);
  }

  async pick(rel: string) {
    await this.row(rel).getByTestId("run-pick").check();
  }

  get compareButton(): Locator {
    return this.page.getByTestId("compare-button");
  }

  async overrideRoot(root: string) {
    await this.page.getByTestId("root-input").fill(root);
    await this.page.getByTestId("root-apply").click();
  }
}

/** /runs/view: one run's header, heat map, matrix table, environment and files. */
export class RunPage {
  constructor(readonly page: Page) {}

  async goto(rel: string, root?: string) {
    await this.page.goto(`/runs/view?${query({ root, path: rel })}`);
  }

  get heatMap(): Locator {
    return this.page.getByTestId("heat-map");
  }

  tile(cell: string): Locator {
    return this.page.locator(`[data-testid="heat-tile"][data-cell="${cell}"]`);
  }

  async metric(id: "failure" | "error" | "ratio") {
    await this.page.getByTestId(`heat-metric-${id}`).click();
    await expect(this.heatMap).toHaveAttribute("data-metric", id);
  }

  cellRow(cell: string): Locator {
    return this.page.locator(`[data-testid="cell-row"][data-cell="${cell}"]`);
  }

  get cellRows(): Locator {
    return this.page.getByTestId("cell-row");
  }

  get cellDetails(): Locator {
    return this.page.getByTestId("cell-details");
  }

  get errors(): Locator {
    return this.page.getByTestId("run-errors");
  }

  get envSearch(): Locator {
    return this.page.getByTestId("env-search");
  }

  file(name: string): Locator {
    return this.page.locator(`[data-testid="file-row"][data-file="${name}"]`);
  }
}

/** /runs/compare: cell deltas and the environment diff. */
export class ComparePage {
  constructor(readonly page: Page) {}

  row(cell: string): Locator {
    return this.page.locator(`[data-testid="compare-row"][data-cell="${cell}"]`);
  }

  envDiff(pathKey: string): Locator {
    return this.page.locator(`[data-testid="env-diff-row"][data-path="${pathKey}"]`);
  }
}

/**
 * Light and dark screenshots at a desktop and a tablet width, for review. The shell scrolls inside
 * <main>, so a "full page" shot needs a viewport as tall as main's content.
 */
export async function screenshots(page: Page, name: string) {
  for (const width of [1280, 768]) {
    await page.setViewportSize({ width, height: 900 });
    const height = await page.evaluate(() => {
      const main = document.querySelector("main");
      return Math.min(6000, Math.max(900, (main?.scrollHeight ?? 0) + 48 + 28));
    });
    await page.setViewportSize({ width, height });
    for (const theme of ["light", "dark"] as const) {
      await page.evaluate((t) => {
        localStorage.setItem("toolroom-theme", t);
        document.documentElement.classList.toggle("dark", t === "dark");
      }, theme);
      await page.screenshot({ path: shotPath(`runs-${name}-${theme}-${width}.png`), fullPage: true });
    }
  }
  await page.evaluate(() => localStorage.removeItem("toolroom-theme"));
}
