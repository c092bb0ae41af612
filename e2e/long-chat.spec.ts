import path from "node:path";
import { expect, test } from "@playwright/test";
import { longChatMessages, seedChat } from "../lib/testing/long-chat";
import { marker, markerExists as exists, removeMarkers } from "./markers";
import { ChatPage } from "./pages/chat";

test.afterEach(removeMarkers);

/** A long chat (500 messages unless said) written into the suite's database, in the given tool mode. */
function seedLongChat(mode: "native" | "text", count = 500): string {
  const id = `long-${mode}-${Date.now()}`;
  seedChat(
    path.join(process.env.E2E_STATE as string, "e2e.db"),
    { id, title: "A long chat", modelRef: "offline", toolMode: mode },
    longChatMessages(id, count),
  );
  return id;
}

for (const mode of ["native", "text"] as const) {
  test.describe(`a 500-message chat in ${mode} mode`, () => {
    test("tool cards, approvals and Stop behave as in a new chat", async ({ page }) => {
      const id = seedLongChat(mode);
      const chat = new ChatPage(page);
      await page.goto(`/chat/${id}`);
      await expect(page.getByTestId(`mode-${mode}`)).toHaveAttribute("aria-checked", "true");
      // The page opens at the latest message; the oldest ones are not even in the page yet.
      await expect(page.getByText("Answer 499.")).toBeInViewport();
      await expect(page.getByText("Question 0:")).toHaveCount(0);

      // A tool call: the card, its result, the answer.
      await chat.send("list files in lib");
      const answer = chat.assistantMessages.last();
      await expect(answer.getByTestId("tool-call")).toHaveAttribute("data-tool", "list_files");
      await expect(answer.getByTestId("tool-call-status")).toHaveText("done");
      await chat.waitIdle();
      await expect(answer).toBeInViewport();

      // An approval: the dialog, then the call runs.
      const file = marker(`long-${mode}`);
      await chat.send(`run \`touch ${file}\``);
      await expect(chat.dialog).toBeVisible();
      await expect(chat.dialog.getByTestId("approval-args")).toContainText(`touch ${file}`);
      await chat.dialog.getByTestId("approval-approve").click();
      await expect(chat.assistantMessages.last().getByTestId("tool-call-status")).toHaveText("done · approved");
      expect(exists(file)).toBe(true);
      await chat.waitIdle();

      // Stop mid-answer: after a reload no call is left running, and the chat stays usable.
      const answers = await chat.assistantMessages.count();
      await chat.send("list files in lib, and answer slowly");
      await expect(page.getByTestId("composer-stop")).toBeVisible();
      // The new answer's card, not the one before it.
      await expect(chat.assistantMessages).toHaveCount(answers + 1);
      await expect(chat.assistantMessages.last().getByTestId("tool-call")).toHaveCount(1);
      await page.getByTestId("composer-stop").click();
      await chat.waitIdle();
      await page.goto(`/chat/${id}`);
      const last = chat.assistantMessages.last();
      await expect(last.getByTestId("tool-call")).toHaveCount(1);
      for (const state of await last.getByTestId("tool-call").evaluateAll((cards) => cards.map((c) => c.getAttribute("data-state")))) {
        expect(["output-available", "output-error"]).toContain(state);
      }
      await chat.send("list files in e2e");
      await expect(chat.assistantMessages.last().getByTestId("tool-call-status")).toHaveText("done");
    });
  });
}

// 200 messages: three older pages of 50 prove the paging as nine would (500 took over a minute of
// rendering beside the other e2e lanes, for nothing more).
test("scrolling up a 200-message chat with the wheel loads its older messages, down to the first", async ({ page }) => {
  test.setTimeout(120_000);
  const id = seedLongChat("native", 200);
  await page.goto(`/chat/${id}`);
  await expect(page.getByText("Answer 199.")).toBeInViewport();
  const list = page.getByTestId("message-list");
  await list.hover();
  await expect(async () => {
    await page.mouse.wheel(0, -3000);
    await expect(page.getByText("Question 0:")).toBeInViewport({ timeout: 200 });
  }).toPass({ timeout: 100_000 });
  await expect(page.getByTestId("older-messages")).toHaveCount(0);
  // Every message once, none twice.
  await expect(page.getByTestId("message-user").or(page.getByTestId("message-assistant"))).toHaveCount(200);
  // The latest message is still there at the bottom.
  await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect(page.getByText("Answer 199.")).toBeInViewport();
});

test("older messages go in above without moving what the person reads", async ({ page }) => {
  const id = seedLongChat("native");
  // Each page of older messages waits until the test has noted where the row on screen is.
  const held: (() => void)[] = [];
  await page.route(`**/api/chats/${id}/messages?*`, async (route) => {
    await new Promise<void>((resolve) => held.push(resolve));
    await route.continue();
  });
  await page.goto(`/chat/${id}`);
  await expect(page.getByText("Answer 499.")).toBeInViewport();
  const list = page.getByTestId("message-list");
  const rows = page.getByTestId("message-user").or(page.getByTestId("message-assistant"));
  const shown = await rows.count();

  // Near the top (the browser keeps the view itself), then at the very top (where it does not).
  for (const top of [400, 0]) {
    const count = await rows.count();
    await list.evaluate((el, y) => el.scrollTo({ top: y }), top);
    await expect.poll(() => held.length).toBe(1);
    // The message at the top of what the person sees.
    await list.evaluate((el) => {
      document.querySelector("[data-watched]")?.removeAttribute("data-watched");
      const top = el.getBoundingClientRect().top;
      [...el.querySelectorAll('[data-testid="message-user"], [data-testid="message-assistant"]')]
        .find((m) => m.getBoundingClientRect().bottom > top + 40)
        ?.setAttribute("data-watched", "");
    });
    const row = page.locator("[data-watched]");
    const before = (await row.boundingBox())!.y;
    held.shift()!();
    // The whole page is drawn, a slice at a time, and the row the person was reading stays put.
    await expect(rows).toHaveCount(count + 50);
    expect(Math.abs((await row.boundingBox())!.y - before)).toBeLessThanOrEqual(2);
  }
  expect(await rows.count()).toBe(shown + 100);
});
