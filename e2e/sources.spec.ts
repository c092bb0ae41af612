import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat";
import { shotPath } from "./pages/shots";
import { SourcesPage } from "./pages/sources";

// e2e/fixtures/toolroom.e2e.yaml configures fs, everything (server-everything over stdio: static
// documents, a text template with completion, prompts, tiny-image and long-running tools) and broken.

test("Sources lists every server; a consumed server's resource is read, a template filled, and the JSON-RPC log shows the reads", async ({ page }) => {
  const sources = new SourcesPage(page);
  await page.goto("/chat");
  await page.getByTestId("nav-sources").click();
  await expect(page).toHaveURL(/\/sources$/);
  await expect(page.getByTestId("source-link")).toHaveCount(3);
  await sources.link("everything").click();
  await expect(sources.panel).toHaveAttribute("data-source", "everything");
  await expect(sources.panel.getByTestId("source-state")).toHaveText("connected");
  await expect(page.getByTestId("source-capabilities")).toContainText("resources · subscribe");

  await sources.resource("demo://resource/static/document/features.md").click();
  await expect(sources.pane.getByTestId("resource-text")).not.toBeEmpty();
  await expect(sources.pane.getByTestId("resource-part")).toContainText("text/markdown");

  const template = sources.template("demo://resource/dynamic/text/{resourceId}");
  await template.getByTestId("arg-resourceId").fill("7");
  await template.getByTestId("template-read").click();
  await expect(sources.pane).toHaveAttribute("data-uri", "demo://resource/dynamic/text/7");
  await expect(sources.pane.getByTestId("resource-text")).toContainText("Resource 7: This is a plaintext resource");

  // Subscribing is offered (the server says it supports it) and shows its state.
  await sources.pane.getByTestId("resource-subscribe").click();
  await expect(sources.pane.getByTestId("resource-updates")).toContainText("subscribed");

  await sources.tab("log");
  const read = sources.logEntries("resources/read").first();
  await expect(read).toHaveAttribute("data-state", "ok");
  await expect(read.getByTestId("rpc-duration")).toHaveText(/\d+(\.\d)? ms/);
  await expect(sources.logEntries("initialize")).toHaveCount(1);
  await expect(sources.logEntries("resources/subscribe").first()).toHaveAttribute("data-state", "ok");

  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.reload();
    await sources.resource("demo://resource/static/document/features.md").click();
    await expect(sources.pane.getByTestId("resource-text")).not.toBeEmpty();
    await page.screenshot({ path: shotPath(`sources-${theme}.png`), fullPage: true });
    await sources.tab("log");
    await page.screenshot({ path: shotPath(`sources-log-${theme}.png`), fullPage: true });
  }
});

test("a server that cannot start shows why, with its handshake in the log", async ({ page }) => {
  const sources = new SourcesPage(page);
  await sources.goto("broken");
  await expect(sources.panel.getByTestId("source-state")).toHaveText("failed");
  await expect(page.getByTestId("source-failure")).toContainText("the server exited before it answered");
  // The request the server never answered is closed as failed when its connection closed, not left
  // waiting. A failed server is tried again on each registry rebuild (a reload, a kept server's
  // changed tool list), and its log keeps every attempt: the latest is the one shown.
  await expect(sources.logEntries("initialize").last()).toHaveAttribute("data-state", "failed");
});

test("a prompt, its arguments filled, lands in a new chat's composer; a resource goes along as an attachment", async ({ page }) => {
  const sources = new SourcesPage(page);
  await sources.goto("everything");
  await sources.tab("prompts");
  await sources.prompt("args-prompt").click();
  await expect(page.getByTestId("insert-new-chat")).toBeDisabled();
  await sources.arg("city").fill("Paris");
  await page.getByTestId("insert-new-chat").click();
  await expect(page).toHaveURL(/\/chat$/);
  await expect(page.getByTestId("composer-input")).toHaveValue(/Paris/);

  await sources.goto("everything");
  await sources.resource("demo://resource/static/document/features.md").click();
  await expect(sources.pane.getByTestId("resource-text")).not.toBeEmpty();
  await page.getByTestId("attach-new-chat").click();
  await expect(page).toHaveURL(/\/chat$/);
  await expect(page.getByTestId("composer-attachment")).toContainText("features.md");
  const chat = new ChatPage(page);
  await chat.send("what does the attachment say");
  await expect(page.getByTestId("message-attachment")).toContainText("demo://resource/static/document/features.md");
  await chat.waitIdle();
  // Stored with the question (it once reached neither the model nor the database): still there after a reload.
  await expect(page).toHaveURL(/\/chat\/[\w-]+$/);
  await page.reload();
  await expect(page.getByTestId("message-attachment")).toContainText("demo://resource/static/document/features.md");
});

test("a consumed tool's image shows on its tool card", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.openNew();
  await chat.send("ev_get-tiny-image");
  const card = chat.toolCards("ev_get-tiny-image");
  await expect(card).toHaveAttribute("data-state", "output-available");
  await expect(card.getByTestId("tool-call-image")).toBeVisible();
  await expect(card.getByTestId("tool-call-image")).toHaveJSProperty("naturalWidth", 20);
  await chat.waitIdle();
});

test("a consumed tool's progress shows on its running card, and Cancel ends the call as cancelled", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.openNew();
  // server-everything's long-running operation reports progress per step (defaults: 5 steps over 10 s).
  await chat.send("ev_trigger-long-running-operation");
  const card = chat.toolCards("ev_trigger-long-running-operation");
  await expect(card.getByTestId("tool-call-progress")).toHaveText(/^[1-4] \/ 5$/);
  await expect(card.getByTestId("tool-call-elapsed")).toHaveText(/\d+ s/);
  await card.getByTestId("tool-call-cancel").click();
  await expect(card.getByTestId("tool-call-status")).toHaveText("cancelled by you");
  await expect(card.getByTestId("tool-call-running")).toHaveCount(0);
  await chat.waitIdle();
});
