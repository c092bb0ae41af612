import { expect, test, type Page } from "@playwright/test";
import { createTextCallParser } from "../lib/chat/text-protocol/parser";
import { marker, removeMarkers } from "./markers";
import { ChatPage } from "./pages/chat";
import { shotPath } from "./pages/shots";

test.afterEach(removeMarkers);

async function shoot(page: Page, name: string) {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: shotPath(`${name}-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: null });
}

async function openTrace(page: Page) {
  await page.getByTestId("trace-toggle").click();
  await expect(page.getByTestId("trace-panel")).toBeVisible();
}

test("a turn with an approval: the trace shows the wait for a person with the decision", async ({ page }) => {
  const file = marker("trace-approve");
  const chat = new ChatPage(page);
  await chat.openNew();
  await chat.setMode("native");
  await chat.send(`run \`touch ${file}\``);
  await expect(chat.dialog).toBeVisible();
  await chat.dialog.getByTestId("approval-approve").click();
  await expect(chat.toolCards("run_terminal_command").getByTestId("tool-call-status")).toHaveText("done · approved");
  await chat.waitIdle();

  await openTrace(page);
  const waiting = page.getByTestId("trace-panel").getByTestId("bar-waiting");
  await expect(waiting).toHaveCount(1);
  await expect(waiting).toHaveAttribute("aria-label", /run_terminal_command: waited .* for a person · approved/);
  await expect(page.getByTestId("trace-waiting")).toContainText("approved");
  await expect(page.getByTestId("trace-panel").getByTestId("bar-tool")).toHaveCount(1);
  // The first step proposed the call; its detail has the decision and the run.
  await page.getByTestId("trace-step").first().click();
  await expect(page.getByTestId("step-call")).toContainText("approved");
  await expect(page.getByTestId("step-detail")).toContainText("Waiting for a person");
  await shoot(page, "trace-panel");
});

test("text mode: the Raw view highlights the call span the parser recognised; the export carries the trace", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.openNew();
  await chat.setMode("text");
  await chat.send("list files in lib");
  await expect(chat.toolCards("list_files").getByTestId("tool-call-status")).toHaveText("done");
  await chat.waitIdle();

  // Keyboard: the trace opens from its button and steps are buttons.
  await page.getByTestId("trace-toggle").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("trace-panel")).toBeVisible();
  await expect(page.getByTestId("trace-step")).toHaveCount(2);
  await page.getByTestId("trace-step").first().focus();
  await page.keyboard.press("Enter");
  await page.getByTestId("tab-raw").click();
  const span = page.getByTestId("raw-call-span");
  await expect(span).toHaveCount(1);
  await expect(span).toContainText("<tool_call>");
  await expect(span).toContainText("list_files");
  await expect(page.getByTestId("raw-view")).toContainText("System prompt (with the tool descriptions)");
  await span.scrollIntoViewIfNeeded();
  await shoot(page, "trace-raw");

  const url = await chat.chatUrl();
  const id = url.split("/").at(-1)!;
  const exported = (await (await page.request.get(`/api/chats/${id}/export`)).json()) as {
    trace: { turns: { steps: { inputTokens?: number; toolMode: string; raw: { response: { calls: unknown[] } } }[] }[] };
  };
  const steps = exported.trace.turns.flatMap((t) => t.steps);
  expect(steps).toHaveLength(2);
  expect(steps[0]!.toolMode).toBe("text");
  expect(steps[0]!.inputTokens).toBeGreaterThan(0);
  expect(steps[0]!.raw.response.calls).toHaveLength(1);
});

test("a near-miss the text-mode parser rejected is listed in the Raw view with the parser's reason", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.openNew();
  await chat.setMode("text");
  await chat.send("list files in lib");
  await chat.waitIdle();
  // The provider's malformed reply (the loopback-provider test stores exactly this in a real trace,
  // lib/server/chat/chat-trace.http.test.ts); here it is shown, with the real parser's verdict.
  const reply = 'Checking.\n<tool_call>{"name": "list_files", "arguments": {"path": "lib"}\n';
  const parser = createTextCallParser("json", ["list_files"]);
  const events = [...parser.push(reply), ...parser.end()];
  const miss = events.find((e) => e.type === "malformed");
  if (!miss || miss.type !== "malformed") throw new Error("the parser accepted the malformed call");
  const start = reply.indexOf(miss.raw);
  await page.route(/\/api\/chats\/[^/]+\/trace$/, async (route) => {
    const real = (await (await route.fetch()).json()) as { turns: { steps: { raw: { response: Record<string, unknown> } }[] }[] };
    const step = real.turns[0]!.steps[0]!;
    step.raw.response = { text: reply, toolInputs: [], calls: [], nearMisses: [{ raw: miss.raw, error: miss.error, start, end: start + miss.raw.length }] };
    await route.fulfill({ json: real });
  });
  await openTrace(page);
  await page.getByTestId("trace-step").first().click();
  await page.getByTestId("tab-raw").click();
  await expect(page.getByTestId("raw-near-miss")).toContainText(miss.error);
  await expect(page.getByTestId("raw-miss-span")).toHaveText(miss.raw);
  await page.getByTestId("raw-near-misses").scrollIntoViewIfNeeded();
  await shoot(page, "trace-near-miss");
});
