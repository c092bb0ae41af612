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

  async start(name: string, modes: "suite" | "native" | "text" | "both") {
    await this.suite(name).getByTestId("eval-modes").selectOption(modes);
    await this.suite(name).getByTestId("eval-start").click();
  }

  get runs(): Locator {
    return this.page.getByTestId("eval-run");
  }
}
