import { expect, test } from "@playwright/test";
import { AppShellPage } from "./pages/app-shell";
import { ChatPage } from "./pages/chat";
import { StoredChat } from "./pages/stored-chat";

test("an unknown address shows the not-found page inside the shell, with a 404", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByTestId("not-found")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  await new AppShellPage(page).expectRendered();
  await page.getByTestId("not-found").getByRole("link", { name: "Tools" }).click();
  await expect(page).toHaveURL(/\/tools$/);
});

// The chat pages stream behind their loading state, so the status line (200) has gone out before the
// page finds the chat missing or broken: these tests read what the page shows.
test("a chat id with no stored chat, or one no chat could have, is not found", async ({ page }) => {
  for (const id of ["nosuchchat0123", "not.a.chat.id"]) {
    await page.goto(`/chat/${id}`);
    await expect(page.getByTestId("chat-not-found")).toBeVisible();
    await expect(page.getByTestId("composer-input")).toHaveCount(0);
  }
  await page.getByTestId("chat-not-found").getByRole("link", { name: "Start a new chat" }).click();
  await expect(page.getByTestId("composer-input")).toBeVisible();
});

test("a chat whose stored messages cannot be read shows the error boundary, not the server's message", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.openNew();
  await chat.send("list files in lib");
  await expect(chat.toolCards("list_files")).toHaveCount(1);
  await chat.waitIdle();
  const url = await chat.chatUrl();
  const stored = new StoredChat(url.split("/").pop() as string);
  const originals = stored.corruptMessages();
  expect(originals.length).toBeGreaterThan(0);
  try {
    await page.goto(url);
    await expect(page.getByTestId("error-boundary")).toContainText("This page could not be shown");
    await expect(page.getByTestId("error-digest")).not.toBeEmpty();
    await expect(page.getByTestId("error-boundary")).not.toContainText("JSON");
    await new AppShellPage(page).expectRendered();

    // The cause goes away: "Try again" renders the chat again.
    stored.restore(originals);
    await page.getByTestId("error-retry").click();
    await expect(chat.toolCards("list_files")).toHaveCount(1);
    await expect(page.getByTestId("error-boundary")).toHaveCount(0);
  } finally {
    stored.restore(originals);
  }
});
