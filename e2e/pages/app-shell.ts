import { expect, type Page } from "@playwright/test";

/** The header, navigation, theme toggle and footer every page shares. */
export class AppShellPage {
  constructor(readonly page: Page) {}

  nav(label: "chat" | "compare" | "tools" | "runs" | "settings") {
    return this.page.getByTestId(`nav-${label}`);
  }

  get themeToggle() {
    return this.page.getByTestId("theme-toggle");
  }

  async isDark(): Promise<boolean> {
    return this.page.evaluate(() => document.documentElement.classList.contains("dark"));
  }

  async expectRendered() {
    await expect(this.page.getByTestId("brand")).toHaveText("Toolroom");
    await expect(this.page.getByTestId("footer-model")).not.toBeEmpty();
    await expect(this.page.getByTestId("footer-database")).toContainText("SQLite");
  }
}
