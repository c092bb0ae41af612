import { expect, type Locator, type Page } from "@playwright/test";

/** Settings → Approvals: every rule in precedence order, UI rules with edit / disable / delete. */
export class ApprovalRulesPage {
  constructor(readonly page: Page) {}

  async open() {
    await this.page.goto("/settings/approvals");
    await expect(this.page.getByRole("heading", { name: "Settings" })).toBeVisible();
  }

  get rows(): Locator {
    return this.page.getByTestId("rule-row");
  }

  row(name: string | RegExp): Locator {
    return this.rows.filter({ has: this.page.getByTestId("rule-name").getByText(name) });
  }
}
