import { expect, type Locator, type Page } from "@playwright/test";

/** The MCP servers panel of `/tools`, and the parts of a tool page that differ for MCP tools. */
export class McpSourcesPanel {
  constructor(readonly page: Page) {}

  get panel() {
    return this.page.getByTestId("sources-panel");
  }
  get rows() {
    return this.panel.getByTestId("source-row");
  }
  row(sourcePackage: string): Locator {
    return this.panel.locator(`[data-testid="source-row"][data-source="${sourcePackage}"]`);
  }
  diagnostic(sourcePackage: string): Locator {
    return this.page.locator(`[data-testid="diagnostic"][data-package="${sourcePackage}"]`);
  }

  /** Clicks the tool count of a connected server: the list narrows to its tools. */
  async showTools(sourcePackage: string) {
    await this.row(sourcePackage).getByTestId("source-tools").click();
    await expect(this.page.getByTestId("filter-package")).toHaveValue(sourcePackage);
  }
}
