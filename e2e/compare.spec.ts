import { expect, test } from "@playwright/test";
import { startFakeOpenAI, type FakeOpenAIServer } from "../lib/testing/openai-server";
import { marker, markerExists as exists, removeMarkers } from "./markers";
import { ChatPage } from "./pages/chat";
import { ComparePage } from "./pages/compare";

// settings llms.loopback points here (playwright.config.ts).
let loopback: FakeOpenAIServer;
test.beforeAll(async () => {
  loopback = await startFakeOpenAI({ port: Number(process.env.E2E_LOOPBACK_PORT) });
});
test.afterAll(() => loopback.close());
test.afterEach(removeMarkers);

// COMPARE_SHOTS=<folder>: light, dark and narrow screenshots of the compare pages and dialogs, to look at.
const shots = process.env.COMPARE_SHOTS;

const toolCall = (id: string, name: string, args: string) => ({
  deltas: [{ tool_calls: [{ index: 0, id, type: "function" as const, function: { name, arguments: args } }] }],
  finish: "tool_calls" as const,
});

/** The loopback model lists lib natively, then reads the README too (a call the offline columns do not make), then answers. */
function scriptListFiles() {
  loopback.reply(toolCall("call_lib", "list_files", '{"path":"lib"}'), toolCall("call_readme", "read_file", '{"path":"README.md"}'), {
    deltas: [{ content: "These are the files in lib." }],
    finish: "stop",
  });
}

test("a compare of offline/native, offline/text and a loopback provider: all three call list_files and the summary shows it", async ({ page }) => {
  scriptListFiles();
  const chat = new ChatPage(page);
  const compare = new ComparePage(page);
  await chat.openNew();
  await page.getByTestId("compare-open").click();
  await compare.setup.getByTestId("compare-prompt").fill("list files in lib");
  await compare.setColumn(0, "offline", "native");
  await compare.setColumn(1, "offline", "text");
  await compare.setColumn(2, "loopback", "native");
  if (shots) await compare.setup.screenshot({ path: `${shots}/compare-setup-light.png` });
  await compare.start();

  await compare.waitDone(3);
  for (let i = 0; i < 3; i++) await expect(compare.column(i).getByTestId("tool-call").and(page.locator('[data-tool="list_files"]'))).toBeVisible();
  await expect(compare.column(1).getByTestId("compare-column-label")).toHaveText("offline · text/json");
  await expect(compare.column(2).getByTestId("compare-column-label")).toHaveText("loopback · native");

  const firstCalls = compare.summary.getByTestId("summary-call-row").first().getByTestId("summary-call");
  await expect(firstCalls).toHaveCount(3);
  for (let i = 0; i < 3; i++) await expect(firstCalls.nth(i)).toContainText("list_files");
  // Without a turn trace the numbers the trace would give read "—", never 0.
  await expect(compare.summary.getByTestId("summary-steps").locator("td")).toHaveText(["2", "2", "3"]);
  // The loopback column's extra call: the offline columns missed it, and their cells are marked.
  const difference = compare.summary.getByTestId("compare-difference");
  await expect(difference).toHaveCount(1);
  await expect(difference).toHaveAttribute("data-kind", "missed-call");
  await expect(difference).toContainText("call 2: A, B");
  const secondCalls = compare.summary.getByTestId("summary-call-row").nth(1).getByTestId("summary-call");
  await expect(secondCalls.nth(0)).toHaveAttribute("data-differs", "true");
  await expect(secondCalls.nth(2)).toContainText("read_file");
  await expect(secondCalls.nth(2)).not.toHaveAttribute("data-differs", "true");
  expect(loopback.requests.at(0)?.tools?.some((t) => t.function.name === "list_files")).toBe(true);

  if (shots) {
    await page.setViewportSize({ width: 1440, height: 1500 });
    await page.screenshot({ path: `${shots}/compare-light.png`, fullPage: true });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.reload();
    await compare.waitDone(3);
    await page.screenshot({ path: `${shots}/compare-dark.png`, fullPage: true });
    await page.setViewportSize({ width: 420, height: 900 });
    await page.screenshot({ path: `${shots}/compare-narrow-dark.png`, fullPage: true });
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 1280, height: 720 });
  }

  // Each column is a real stored chat.
  const href = await compare
    .column(2)
    .getByRole("link", { name: /Open column C as a chat/ })
    .getAttribute("href");
  await page.goto(href!);
  await expect(chat.toolCards("list_files")).toBeVisible();
  await expect(page.getByTestId("model-picker")).toHaveValue("loopback");
});

test("approvals work per column and the dialog names the column", async ({ page }) => {
  const file = marker("compare");
  const chat = new ChatPage(page);
  const compare = new ComparePage(page);
  await chat.openNew();
  await page.getByTestId("compare-open").click();
  await compare.setup.getByTestId("compare-prompt").fill(`run \`touch ${file}\``);
  await compare.setColumn(0, "offline", "native");
  await compare.setColumn(1, "offline", "text");
  await compare.start();

  // Both columns wait; the leftmost asks first.
  for (let i = 0; i < 2; i++) await expect(compare.column(i).getByText("waiting for approval").first()).toBeVisible();
  await expect(compare.dialog).toBeVisible();
  await expect(compare.dialog.getByTestId("approval-column")).toHaveText("Column A · offline · native");
  await expect(compare.dialog.getByTestId("approval-args")).toContainText(file);
  if (shots) {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: `${shots}/compare-approval-dark.png` });
    await page.emulateMedia({ colorScheme: "light" });
  }
  // Keyboard: Enter on the focused Approve button approves.
  await compare.dialog.getByTestId("approval-approve").focus();
  await page.keyboard.press("Enter");

  await expect(compare.dialog.getByTestId("approval-column")).toHaveText("Column B · offline · text/json");
  await compare.dialog.getByTestId("approval-reason").fill("not this one");
  await compare.dialog.getByTestId("approval-deny").click();
  await expect(compare.dialog).toBeHidden();

  await expect(compare.column(0).getByTestId("tool-call-status")).toHaveText("done · approved");
  await expect(compare.column(1).getByTestId("tool-call-status")).toHaveText("denied: not this one");
  expect(exists(file)).toBe(true);
});

test("Replay in… re-runs a stored chat as a new compare; comparisons are listed and reopen without sending again", async ({ page }) => {
  const chat = new ChatPage(page);
  const compare = new ComparePage(page);
  await chat.openNew();
  await chat.send("list files in lib");
  await expect(chat.toolCards("list_files")).toBeVisible();
  await chat.waitIdle();
  await chat.send("read README.md");
  await expect(chat.toolCards("read_file")).toBeVisible();
  await chat.waitIdle();

  await page.getByTestId("replay-open").click();
  await compare.setup.getByTestId("replay-all").check();
  await compare.setColumn(0, "offline", "native");
  await compare.setColumn(1, "offline", "text");
  const url = await compare.start();
  await expect(page.getByTestId("compare-prompts")).toContainText("list files in lib");
  await expect(page.getByTestId("compare-prompts")).toContainText("read README.md");
  await expect(page.getByTestId("compare-source")).toBeVisible();
  for (let i = 0; i < 2; i++) await expect(compare.column(i).getByTestId("tool-call").and(page.locator('[data-tool="read_file"]'))).toBeVisible();
  await compare.waitDone(2);
  await expect(compare.summary.getByTestId("summary-call-row")).toHaveCount(2);

  await page.getByTestId("nav-compare").click();
  await expect(page).toHaveURL(/\/compare$/);
  const row = page.getByTestId("compare-list-row").filter({ hasText: "list files in lib" }).filter({ hasText: "(replay)" });
  await expect(row).toHaveCount(1);
  if (shots) await page.screenshot({ path: `${shots}/compare-list-light.png` });
  await row.getByRole("link").click();
  await expect(page).toHaveURL(url);
  await compare.waitDone(2);
  // Reopened: the stored answers, and no prompt sent twice.
  for (let i = 0; i < 2; i++) await expect(compare.column(i).getByTestId("message-user")).toHaveCount(2);
});
