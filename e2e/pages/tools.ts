import { expect, type Locator, type Page } from "@playwright/test";
import { shotPath } from "./shots";

/** The tools list (`/tools`) and one tool's page (`/tools/[name]`). */
export class ToolsPage {
  constructor(readonly page: Page) {}

  async gotoList() {
    await this.page.goto("/tools");
    await expect(this.page.getByRole("heading", { level: 1, name: "Tools" })).toBeVisible();
  }

  async gotoTool(name: string) {
    await this.page.goto(`/tools/${encodeURIComponent(name)}`);
    await expect(this.page.getByTestId("tool-name")).toHaveText(name);
  }

  get search() {
    return this.page.getByTestId("tools-search");
  }
  get rows() {
    return this.page.getByTestId("tool-row");
  }
  row(name: string): Locator {
    return this.page.locator(`[data-testid="tool-row"][data-tool="${name}"]`);
  }
  get diagnostics() {
    return this.page.getByTestId("diagnostic");
  }

  // The tool page.
  get docs() {
    return this.page.getByTestId("tool-docs");
  }
  get schemaTable() {
    return this.page.getByTestId("schema-table");
  }
  schemaRow(path: string): Locator {
    return this.page.locator(`[data-testid="schema-row"][data-path="${path}"]`);
  }
  get source() {
    return this.page.getByTestId("source-view");
  }

  // Try it.
  field(path: string): Locator {
    return this.page.locator(`[data-field="${path}"]`).locator("input, textarea, select").first();
  }
  get run() {
    return this.page.getByTestId("try-it-run");
  }
  get result() {
    return this.page.getByTestId("try-it-result");
  }
  get resultText() {
    return this.page.getByTestId("try-it-result-text");
  }
  get dialog() {
    return this.page.getByTestId("approval-dialog");
  }

  /**
   * A full-length screenshot. The app scrolls inside <main>, not the document, so the viewport is
   * grown to the content's height first, then restored.
   */
  async screenshot(name: string, width: number) {
    await this.page.setViewportSize({ width, height: 900 });
    const extra = await this.page.evaluate(() => {
      const main = document.querySelector("main");
      return main ? main.scrollHeight - main.clientHeight : 0;
    });
    await this.page.setViewportSize({ width, height: 900 + Math.max(0, extra) });
    await this.page.screenshot({ path: shotPath(`${name}.png`), fullPage: true });
    await this.page.setViewportSize({ width, height: 900 });
  }
}
