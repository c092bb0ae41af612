import { expect, test } from "@playwright/test";
import { marker, markerExists as exists, removeMarkers } from "./markers";
import { ChatPage } from "./pages/chat";

test.afterEach(removeMarkers);

for (const mode of ["native", "text"] as const) {
  test.describe(`approvals in ${mode} mode`, () => {
    test("approve runs the tool and shows its result", async ({ page }) => {
      const file = marker(`approve-${mode}`);
      const chat = new ChatPage(page);
      await chat.openNew();
      await chat.setMode(mode);
      await chat.send(`run \`touch ${file}\``);

      await expect(chat.dialog).toBeVisible();
      await expect(chat.dialog.getByTestId("approval-tool")).toHaveText("run_terminal_command");
      await expect(chat.dialog.getByTestId("approval-args")).toContainText(`touch ${file}`);
      await expect(chat.dialog.getByTestId("approval-countdown")).toBeVisible();
      expect(exists(file)).toBe(false);

      await chat.dialog.getByTestId("approval-approve").click();
      const card = chat.toolCards("run_terminal_command");
      await expect(card.getByTestId("tool-call-status")).toHaveText("done · approved");
      expect(exists(file)).toBe(true);
    });

    test("deny with a reason: nothing runs and the model is told", async ({ page }) => {
      const file = marker(`deny-${mode}`);
      const chat = new ChatPage(page);
      await chat.openNew();
      await chat.setMode(mode);
      await chat.send(`run \`touch ${file}\``);
      await expect(chat.dialog).toBeVisible();
      await chat.dialog.getByTestId("approval-reason").fill("not in my repo");
      await chat.dialog.getByTestId("approval-deny").click();

      const card = chat.toolCards("run_terminal_command");
      await expect(card.getByTestId("tool-call-status")).toHaveText("denied: not in my repo");
      // The model's next text quotes the tool's not-admitted result, the person's reason inside it.
      await expect(chat.assistantMessages.last()).toContainText(`Not run: the user denied "touch ${file}" (reason: not in my repo)`);
      expect(exists(file)).toBe(false);
    });

    test("a pending approval survives a reload, and keyboard: Esc denies", async ({ page }) => {
      const file = marker(`reload-${mode}`);
      const chat = new ChatPage(page);
      await chat.openNew();
      await chat.setMode(mode);
      await chat.send(`run \`touch ${file}\``);
      await expect(chat.dialog).toBeVisible();
      const url = await chat.chatUrl();

      await page.goto(url);
      await expect(chat.dialog).toBeVisible();
      await expect(chat.dialog.getByTestId("approval-args")).toContainText(file);
      // Focus starts on the dialog itself: Enter there approves nothing.
      await page.keyboard.press("Enter");
      await expect(chat.dialog).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(chat.toolCards("run_terminal_command").getByTestId("tool-call-status")).toHaveText("denied");
      expect(exists(file)).toBe(false);
    });

    test("approve for this chat: the second call runs without a dialog", async ({ page }) => {
      const first = marker(`grant1-${mode}`);
      const second = marker(`grant2-${mode}`);
      const chat = new ChatPage(page);
      await chat.openNew();
      await chat.setMode(mode);
      await chat.send(`run \`touch ${first}\``);
      await expect(chat.dialog).toBeVisible();
      await chat.dialog.getByTestId("approval-grant").check();
      await chat.dialog.getByTestId("approval-approve").click();
      await expect(chat.toolCards("run_terminal_command").first().getByTestId("tool-call-status")).toHaveText("done · approved");
      await chat.waitIdle();
      await expect(page.getByTestId("grants")).toContainText("run_terminal_command");

      await chat.send(`run \`touch ${second}\``);
      await expect(chat.toolCards("run_terminal_command")).toHaveCount(2);
      await expect(chat.toolCards("run_terminal_command").nth(1).getByTestId("tool-call-status")).toHaveText("done · auto-approved by grant");
      await expect(chat.dialog).toHaveCount(0);
      expect(exists(first) && exists(second)).toBe(true);
    });
  });
}

test("unsupervised: the call is not admitted, with no dialog, and the model continues", async ({ page }) => {
  const file = marker("unsupervised");
  const chat = new ChatPage(page);
  await chat.openNew();
  // Turning supervision off asks first, in the app's own dialog; focus starts on Cancel.
  await page.getByTestId("supervised-toggle").click();
  const confirm = page.getByTestId("unsupervised-confirm");
  await expect(confirm.getByTestId("confirm-cancel")).toBeFocused();
  await expect(page.getByTestId("supervised-toggle")).toBeChecked();
  await confirm.getByTestId("confirm-ok").click();
  await expect(page.getByTestId("supervised-toggle")).not.toBeChecked();
  await chat.send(`run \`touch ${file}\``);
  const card = chat.toolCards("run_terminal_command");
  await expect(card.getByTestId("tool-call-status")).toHaveText("not admitted (unsupervised)");
  await expect(chat.dialog).toHaveCount(0);
  await expect(chat.assistantMessages.last()).toContainText(/not run|not admitted|unsupervised/i);
  expect(exists(file)).toBe(false);
});
