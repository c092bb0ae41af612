import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat";

for (const mode of ["native", "text"] as const) {
  test.describe(`chat in ${mode} mode`, () => {
    test("a tool call with the real listing, a final answer, and identical history after reload", async ({ page }) => {
      const chat = new ChatPage(page);
      await chat.openNew();
      await chat.setMode(mode);
      await chat.send("list files in lib");

      const card = chat.toolCards("list_files");
      await expect(card).toHaveCount(1);
      await expect(card.getByTestId("tool-call-status")).toHaveText("done");
      await card.getByRole("button").first().click();
      // The real listing of lib/: files this repository has.
      await expect(card.getByTestId("tool-call-output")).toContainText("lib/artifacts/__fixtures__/probe/ROCM-456/matrix.json");
      await expect(card.getByTestId("tool-call-output")).toContainText("lib/artifacts/");
      await expect(card.getByTestId("tool-call-input")).toContainText('"path": "lib"');
      await expect(chat.assistantMessages.last()).toContainText("list_files");
      await chat.waitIdle();
      await card.getByRole("button").first().click();

      const url = await chat.chatUrl();
      const before = await page.getByTestId("message-list").innerText();
      await page.goto(url);
      await expect(chat.toolCards("list_files")).toHaveCount(1);
      await expect(page.getByTestId("answered-by")).toBeVisible();
      expect(await page.getByTestId("message-list").innerText()).toBe(before);
      await expect(page.getByTestId(`mode-${mode}`)).toHaveAttribute("aria-checked", "true");
    });

    test("stop mid-answer leaves no orphaned call after reload", async ({ page }) => {
      const chat = new ChatPage(page);
      await chat.openNew();
      await chat.setMode(mode);
      await chat.send("list files in lib, and answer slowly");
      await expect(chat.toolCards("list_files")).toHaveCount(1);
      await expect(page.getByTestId("composer-stop")).toBeVisible();
      await page.getByTestId("composer-stop").click();
      await chat.waitIdle();

      const url = await chat.chatUrl();
      await page.goto(url);
      await expect(chat.toolCards()).toHaveCount(1);
      // Every stored call has a result: none is left preparing or running.
      for (const state of await chat.toolCards().evaluateAll((cards) => cards.map((c) => c.getAttribute("data-state")))) {
        expect(["output-available", "output-error"]).toContain(state);
      }
      // The chat stays usable.
      await chat.send("list files in e2e");
      await expect(chat.toolCards("list_files")).toHaveCount(2);
    });
  });
}

test("a model that is not configured gives a visible error and the chat stays usable", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.openNew();
  await page.getByTestId("model-picker").selectOption("gpt");
  await chat.send("hello there");
  // The e2e gpt entry points at OpenAI with a fake key and no network: a provider error, keys scrubbed.
  await expect(page.getByTestId("message-error").or(page.getByTestId("chat-error"))).toBeVisible({ timeout: 30_000 });
  await expect(page.locator("body")).not.toContainText("sk-e2e-secret-never-shown-123456");
  // The exported chat carries the provider error too, scrubbed like the page.
  const chats = (await (await page.request.get("/api/chats")).json()) as { chats: { id: string; title: string }[] };
  const chatId = chats.chats.find((c) => c.title === "hello there")?.id;
  expect(chatId).toBeTruthy();
  const exported = await page.request.get(`/api/chats/${chatId}/export`);
  expect(exported.ok()).toBe(true);
  const text = await exported.text();
  expect(text).toContain("toolCalls");
  expect(text).not.toContain("sk-e2e-secret-never-shown-123456");
  await page.getByTestId("model-picker").selectOption("offline");
  await chat.send("list files in lib");
  await expect(chat.toolCards("list_files")).toHaveCount(1);
});

test("the tool mode is a radio group: arrow keys move the choice", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.openNew();
  await chat.setMode("native");
  await page.getByTestId("mode-native").focus();
  // Radix moves focus a tick after keydown and checks the item only while an arrow key is down,
  // as it is for a person; an instant press would release it first.
  await page.keyboard.down("ArrowRight");
  await expect(page.getByTestId("mode-text")).toHaveAttribute("aria-checked", "true");
  await page.keyboard.up("ArrowRight");
  await expect(page.getByTestId("mode-text")).toBeFocused();
  await page.keyboard.down("ArrowLeft");
  await expect(page.getByTestId("mode-native")).toHaveAttribute("aria-checked", "true");
  await page.keyboard.up("ArrowLeft");
  await expect(page.getByRole("radiogroup", { name: "Tool mode" }).getByRole("radio")).toHaveCount(2);
});

test("deleting a chat asks in a dialog: Esc keeps it, Delete removes it", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.openNew();
  await chat.send("list files in lib");
  const id = new URL(await chat.chatUrl()).pathname.split("/").at(-1);
  await chat.waitIdle();
  const item = page.getByTestId("chat-history-item").filter({ has: page.locator(`a[href="/chat/${id}"]`) });
  await item.hover();
  await item.getByTestId("chat-delete").click();
  const confirm = page.getByTestId("chat-delete-confirm");
  await expect(confirm).toBeVisible();
  await expect(confirm.getByTestId("confirm-cancel")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(confirm).toHaveCount(0);
  await expect(item).toHaveCount(1);
  await item.hover();
  await item.getByTestId("chat-delete").click();
  await confirm.getByTestId("confirm-ok").click();
  await expect(item).toHaveCount(0);
  await expect(page).toHaveURL(/\/chat$/);
});
