import { expect, type Locator, type Page } from "@playwright/test";

/** The OAuth view (/sources/oauth): each remote MCP server's sign-in state and its last flow's steps. */
export class OAuthPage {
  constructor(
    readonly page: Page,
    readonly origin = "",
  ) {}

  async goto(server?: string) {
    await this.page.goto(`${this.origin}/sources/oauth${server ? `?server=${encodeURIComponent(server)}` : ""}`);
  }

  section(server: string): Locator {
    return this.page.locator(`[data-testid="oauth-server"][data-server="${server}"]`);
  }

  status(server: string): Locator {
    return this.section(server).getByTestId("oauth-status");
  }

  steps(server: string): Locator {
    return this.section(server).getByTestId("oauth-step");
  }

  async signIn(server: string) {
    await this.section(server).getByTestId("oauth-sign-in").click();
  }

  async signOut(server: string) {
    await this.section(server).getByTestId("oauth-sign-out").click();
    await expect(this.status(server)).not.toHaveAttribute("data-state", "signed-in");
  }
}
