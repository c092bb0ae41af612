import { expect, type Locator, type Page } from "@playwright/test";

/** The comparison setup dialog, a comparison's columns and summary, and the list of comparisons. */
export class ComparePage {
  constructor(readonly page: Page) {}

  get setup() {
    return this.page.getByTestId("compare-dialog");
  }

  /** Sets column `index` (adding columns as needed) to a model and tool mode. */
  async setColumn(index: number, modelRef: string, mode: "native" | "text") {
    while ((await this.setup.getByTestId("compare-column-row").count()) <= index) await this.setup.getByTestId("compare-add-column").click();
    await this.setup.getByTestId(`compare-model-${index}`).selectOption(modelRef);
    await this.setup.getByTestId(`compare-mode-${index}-${mode}`).click();
    await expect(this.setup.getByTestId(`compare-mode-${index}-${mode}`)).toHaveAttribute("aria-checked", "true");
  }

  async start(): Promise<string> {
    await this.setup.getByTestId("compare-start").click();
    await expect(this.page).toHaveURL(/\/compare\/[A-Za-z0-9_-]+$/);
    return this.page.url();
  }

  get columns() {
    return this.page.getByTestId("compare-column");
  }

  column(index: number): Locator {
    return this.page.locator(`[data-testid="compare-column"][data-column="${index}"]`);
  }

  get dialog() {
    return this.page.getByTestId("approval-dialog");
  }

  get summary() {
    return this.page.getByTestId("compare-summary");
  }

  /** Every column has answered: an assistant message and nothing running or waiting. */
  async waitDone(count: number) {
    await expect(this.columns).toHaveCount(count);
    for (let i = 0; i < count; i++) {
      await expect(this.column(i).getByTestId("answered-by").last()).toBeVisible();
      await expect(this.column(i).getByText("running", { exact: true })).toHaveCount(0);
    }
  }
}
