import { expect, type Locator, type Page } from "@playwright/test";

/** The chat screen: composer, messages, tool-call cards, header controls, approval dialog. */
export class ChatPage {
  constructor(readonly page: Page) {}

  async openNew() {
    await this.page.goto("/chat");
    await expect(this.page.getByTestId("composer-input")).toBeVisible();
  }

  async setMode(mode: "native" | "text") {
    await this.page.getByTestId(`mode-${mode}`).click();
    await expect(this.page.getByTestId(`mode-${mode}`)).toHaveAttribute("aria-checked", "true");
  }

  async send(text: string) {
    await this.page.getByTestId("composer-input").fill(text);
    await this.page.getByTestId("composer-input").press("Enter");
  }

  toolCards(tool?: string): Locator {
    const cards = this.page.getByTestId("tool-call");
    return tool ? cards.and(this.page.locator(`[data-tool="${tool}"]`)) : cards;
  }

  get assistantMessages() {
    return this.page.getByTestId("message-assistant");
  }

  get dialog() {
    return this.page.getByTestId("approval-dialog");
  }

  async waitIdle() {
    await expect(this.page.getByTestId("composer-send")).toBeVisible();
  }

  async chatUrl(): Promise<string> {
    await expect(this.page).toHaveURL(/\/chat\/[A-Za-z0-9_-]+$/);
    return this.page.url();
  }
}
