import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat";
import { shotPath } from "./pages/shots";
import { StoredChat } from "./pages/stored-chat";

test("text mode with the hermes protocol: list_files runs, and no protocol text is shown as prose", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.openNew();
  await chat.setMode("text");
  await page.getByTestId("protocol-picker").selectOption("hermes");
  await chat.send("list files in lib");

  const card = chat.toolCards("list_files");
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId("tool-call-status")).toHaveText("done");
  await chat.waitIdle();
  const answer = chat.assistantMessages.last();
  await expect(answer).toContainText("list_files");
  // The call the (offline) model wrote as <tool_call> text became the card; none of it is prose.
  for (const syntax of ["<tool_call>", "</tool_call>", "tool_call", '"arguments"']) await expect(answer).not.toContainText(syntax);

  const url = await chat.chatUrl();
  const chatId = url.split("/").at(-1)!;
  const stored = await (await page.request.get(`/api/chats/${chatId}`)).json();
  expect(stored.chat).toMatchObject({ toolMode: "text", textProtocol: "hermes" });

  // Auto mode's notice and a repaired call's mark, as a stored answer carries them.
  new StoredChat(chatId).patchLastAnswerMetadata((metadata) => {
    const calls = (metadata.calls ?? {}) as Record<string, Record<string, unknown>>;
    const id = Object.keys(calls)[0];
    if (!id) throw new Error("the stored answer has no call metadata");
    return {
      ...metadata,
      notice: "this model has no native tool calling; using text mode (hermes)",
      calls: { ...calls, [id]: { ...calls[id], repaired: "trailing comma" } },
    };
  });
  await page.goto(url);
  await expect(page.getByTestId("message-notice")).toHaveText("this model has no native tool calling; using text mode (hermes)");
  await expect(chat.toolCards("list_files").getByTestId("call-repaired")).toHaveText("repaired: trailing comma");
  await expect(page.getByTestId("protocol-picker")).toHaveValue("hermes");
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: shotPath(`text-hermes-chat-${scheme}.png`) });
    // The top of the answer (the notice, the prose, the card), clear of the sticky header.
    await page.getByTestId("message-user").last().scrollIntoViewIfNeeded();
    await page.screenshot({ path: shotPath(`text-hermes-answer-top-${scheme}.png`) });
  }
});
