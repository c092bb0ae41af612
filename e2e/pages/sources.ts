import { expect, type Locator, type Page } from "@playwright/test";

/** The Sources view: the server list, one server's panel with its tabs, resources, prompts and JSON-RPC log. */
export class SourcesPage {
  constructor(readonly page: Page) {}

  async goto(server?: string) {
    await this.page.goto(server ? `/sources?server=${encodeURIComponent(server)}` : "/sources");
    await expect(this.page.getByRole("heading", { level: 1, name: "Sources" })).toBeVisible();
  }

  get panel(): Locator {
    return this.page.getByTestId("source-panel");
  }

  link(server: string): Locator {
    return this.page.locator(`[data-testid="source-link"][data-source="${server}"]`);
  }

  async tab(name: "resources" | "prompts" | "tools" | "log") {
    await this.page.getByTestId(`tab-${name}`).click();
  }

  resource(uri: string): Locator {
    return this.page.locator(`[data-testid="resource-row"][data-uri="${uri}"]`);
  }

  template(uriTemplate: string): Locator {
    return this.page.locator(`[data-testid="template-row"][data-template="${uriTemplate}"]`);
  }

  prompt(name: string): Locator {
    return this.page.locator(`[data-testid="prompt-row"][data-prompt="${name}"]`);
  }

  arg(name: string): Locator {
    return this.page.getByTestId(`arg-${name}`);
  }

  get pane(): Locator {
    return this.page.getByTestId("resource-pane");
  }

  logEntries(method?: string): Locator {
    const entries = this.page.getByTestId("rpc-entry");
    return method ? entries.and(this.page.locator(`[data-method="${method}"]`)) : entries;
  }
}
