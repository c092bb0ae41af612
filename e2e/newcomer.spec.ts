// A newcomer's first hour (issue 21, items 7, 8 and 10): the Runs page on a fresh clone, adding a
// real model from the chat, and how a chat shows its model and tool mode.
import { expect, test, type Page } from "@playwright/test";
import { ChatPage } from "./pages/chat";
import { startOwnServer, type OwnServer } from "./pages/next-server";
import { shotPath } from "./pages/shots";

/** Light and dark shots for review. */
async function shots(page: Page, name: string) {
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => document.documentElement.classList.toggle("dark", t === "dark"), theme);
    await page.screenshot({ path: shotPath(`newcomer-${name}-${theme}.png`) });
  }
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
}

test("the chat shows the offline model's syntax, and 'Add a model…' leads to copyable llms examples", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.openNew();
  await expect(page.getByTestId("steering-syntax")).toHaveText('tool_name {json}\nread_file {"path": "README.md"}');
  await expect(page.getByTestId("footer-model")).toHaveText("Offline (scripted)");

  // The footer names the chat's own model, not only the default.
  await page.getByTestId("model-picker").selectOption("gpt");
  await expect(page.getByTestId("footer-model")).toHaveText("gpt (openai/gpt-4o-mini)");
  await page.getByTestId("model-picker").selectOption("offline");

  // Shown as a list, as a native select's menu cannot be captured.
  await page.setViewportSize({ width: 1280, height: 560 });
  await page.getByTestId("model-picker").evaluate((el) => {
    el.setAttribute("size", "3");
    (el as HTMLElement).style.height = "auto";
  });
  await shots(page, "model-picker");
  await page.getByTestId("model-picker").evaluate((el) => {
    el.removeAttribute("size");
    (el as HTMLElement).style.height = "";
  });

  await page.getByTestId("model-picker").selectOption({ label: "Add a model…" });
  await expect(page).toHaveURL(/\/settings#add-a-model$/);
  const section = page.getByTestId("add-model");
  await expect(section).toBeInViewport();
  await expect(section.getByTestId("model-example-openai")).toContainText("provider: openai");
  await expect(section.getByTestId("model-example-anthropic")).toContainText("provider: anthropic");
  await expect(section.getByTestId("model-example-local")).toContainText("Ollama, vLLM, LM Studio");
  await expect(section.getByTestId("model-example-local")).toContainText("baseURL: http://127.0.0.1:11434/v1");
  await expect(page.getByTestId("settings-row").filter({ hasText: "aiAssistedGuardFile" }).getByTestId("settings-help")).toContainText("commit hook");
  await page.setViewportSize({ width: 1280, height: 720 });
  await section.scrollIntoViewIfNeeded();
  await shots(page, "settings-add-model");
});

test("a text-mode chat's tool cards say so", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.openNew();
  await chat.setMode("text");
  await chat.send("list files in lib");
  await expect(chat.toolCards("list_files").getByTestId("tool-call-mode")).toHaveText("text · json");
  await chat.waitIdle();
  await chat.setMode("native");
  await chat.send("list files in bin");
  await expect(chat.toolCards("list_files").nth(1).getByTestId("tool-call-mode")).toHaveText("native");
});

test.describe("a fresh clone", () => {
  test.describe.configure({ timeout: 180_000 });
  let server: OwnServer;

  test.beforeAll(async () => {
    // No runsRoot anywhere: the default ./runs, which a fresh clone does not have. The server does not
    // see this checkout's ./runs (nor a ./toolroom.yaml of the developer's, which might set runsRoot).
    server = await startOwnServer("fresh", () => "{}\n", { hide: ["runs", "toolroom.yaml"] });
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  test("the sample plugin is installed: /tools lists its confirming tool, and the empty chat's suggested prompt opens the approval dialog", async ({
    page,
  }) => {
    await page.goto(`${server.origin}/tools`);
    const row = page.locator('[data-tool="sample_save_note"]');
    await expect(row.getByTestId("tool-package")).toHaveText("[toolroom-plugin-sample] 1.2.0");
    await expect(row).toContainText("asks before every note it writes");

    await page.goto(`${server.origin}/chat`);
    const suggested = page.getByTestId("suggested-approval-prompt");
    await expect(suggested).toContainText("sample_save_note");
    await suggested.click();
    await expect(page.getByTestId("approval-tool")).toHaveText("sample_save_note");
    await shots(page, "first-approval");
    // Denied: nothing is written into the checkout the fresh clone serves.
    await page.getByTestId("approval-deny").click();
    await expect(page.getByTestId("approval-tool")).toHaveCount(0);
  });

  test("/runs is an empty state that opens the bundled example runs", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 820 });
    await page.goto(`${server.origin}/runs`);
    const empty = page.getByTestId("runs-empty");
    await expect(empty).toContainText("No runs yet");
    await expect(empty).toContainText("A run folder is what a test or benchmark harness wrote");
    await expect(empty).toContainText("runsRoot: /path/to/runs");
    await expect(page.getByTestId("root-error")).toHaveCount(0);
    await shots(page, "runs-empty");

    await page.getByTestId("open-example-runs").click();
    await expect(page.getByTestId("runs-table")).toContainText("ROCM-456");
    await expect(page.getByTestId("runs-table")).toContainText("consan-racy");
  });
});
