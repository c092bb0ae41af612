import { expect, type Locator, type Page } from "@playwright/test";

/** /evals: the suites found, their Run buttons, and this server's evals with live progress. */
export class EvalsPage {
  constructor(readonly page: Page) {}

  async goto(origin = "") {
    await this.page.goto(`${origin}/evals`);
    await expect(this.page.getByRole("heading", { level: 1, name: "Evals" })).toBeVisible();
  }

  suite(name: string): Locator {
    return this.page.locator(`[data-testid="eval-suite"][data-suite="${name}"]`);
  }

  async start(name: string, modes: "suite" | "native" | "text" | "both" | "sweep") {
    await this.suite(name).getByTestId("eval-modes").selectOption(modes);
    await this.suite(name).getByTestId("eval-start").click();
  }

  get runs(): Locator {
    return this.page.getByTestId("eval-run");
  }
}

/** An eval run's page: the case × cell grid, a square's expected-vs-actual diff, the recommendation. */
export class EvalRunPage {
  constructor(readonly page: Page) {}

  get grid(): Locator {
    return this.page.getByTestId("case-grid");
  }

  square(caseName: string, column: number): Locator {
    return this.page.locator(`[data-testid="grid-row"][data-case="${caseName}"]`).getByTestId("grid-square").nth(column);
  }

  get diff(): Locator {
    return this.page.getByTestId("case-diff");
  }

  get recommendation(): Locator {
    return this.page.getByTestId("recommendation-section");
  }
}
