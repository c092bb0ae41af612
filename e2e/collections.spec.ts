// /collections end to end on a server of its own (a temp source root, so saved collections and the
// sample plugin's notes never land in the tree): a collection is listed with its calls, Run asks
// for the confirming call in the approval dialog, each call shows expected vs actual and its change
// since the last run, and Try it → Save to collection starts a new collection file.
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { startOwnServer, type OwnServer } from "./pages/next-server";
import { shotPath } from "./pages/shots";

let server: OwnServer;
let sourceRoot: string;

const COLLECTION = `name: checks
description: The sample plugin's tools, one call feeding the next.
vars: { phrase: "the quick brown fox", words: 4 }
calls:
  - name: count
    tool: sample_word_count
    input: { text: "{{phrase}}" }
    expect: { contains: "words={{words}}" }
  - name: wrong
    tool: sample_word_count
    input: { text: "two words" }
    expect: { contains: "words=99" }
  - name: missing
    tool: sample_file_stats
    input: { path: no/such/file.txt }
    expect: { error: true }
  - name: save
    tool: sample_save_note
    input: { title: from-page, body: "{{calls.count.output}}" }
    expect: { notAdmitted: true }
  - name: echo
    tool: sample_word_count
    input: { text: "{{calls.count.output}}" }
    expect: { contains: "words=3" }
`;

test.beforeAll(async () => {
  server = await startOwnServer("e2e-collections", (state) => {
    sourceRoot = path.join(state, "src");
    fs.mkdirSync(path.join(sourceRoot, "checks"), { recursive: true });
    fs.writeFileSync(path.join(sourceRoot, "checks/checks.calls.yaml"), COLLECTION);
    return JSON.stringify({ sourceRoot, runsRoot: path.join(state, "runs") });
  });
});

test.afterAll(async () => {
  await server?.stop();
});

async function shots(page: Page, name: string, target?: { screenshot: Page["screenshot"] }) {
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => document.documentElement.classList.toggle("dark", t === "dark"), theme);
    await (target ?? page).screenshot({ path: shotPath(`${name}-${theme}.png`) });
  }
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
}

test("a collection runs from /collections: the confirming call asks in the approval dialog, results show expected vs actual and what changed", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto(`${server.origin}/collections`);
  const card = page.locator('[data-testid="collection"][data-key="source:checks/checks.calls.yaml"]');
  await expect(card.getByTestId("collection-call")).toHaveCount(5);
  await expect(page.locator('[data-testid="collection"][data-key="examples:sample-plugin.calls.yaml"]')).toBeVisible();

  await card.getByTestId("collection-run").click();
  const dialog = page.getByTestId("approval-dialog");
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId("approval-tool")).toHaveText("sample_save_note");
  await expect(page.getByTestId("approval-args")).toContainText("words=4 lines=1 chars=19");
  await page.getByTestId("approval-deny").click();
  await expect(dialog).toBeHidden();

  const verdict = (name: string) => card.locator(`[data-call="${name}"]`).getByTestId("collection-call-verdict");
  await expect(verdict("echo")).toHaveAttribute("data-verdict", "pass");
  await expect(verdict("count")).toHaveAttribute("data-verdict", "pass");
  await expect(verdict("wrong")).toHaveAttribute("data-verdict", "fail");
  await expect(verdict("missing")).toHaveAttribute("data-verdict", "pass");
  await expect(verdict("save")).toHaveText("pass · not admitted (user)");
  const failures = card.locator('[data-call="wrong"]').getByTestId("collection-call-failures");
  await expect(failures).toContainText('contains "words=99"');
  await expect(failures).toContainText("words=2 lines=1 chars=9");
  await expect(card.getByTestId("collection-summary")).toContainText("4 of 5 passed, 1 failed");
  expect(fs.existsSync(path.join(sourceRoot, ".toolroom/notes/from-page.md"))).toBe(false);

  // Again with another phrase: count breaks (the expectation still says 4 words), and the page says so.
  await card.getByTestId("collection-var-phrase").fill("one two three");
  await card.getByTestId("collection-run").click();
  await expect(dialog).toBeVisible();
  await page.getByTestId("approval-deny").click();
  await expect(card.getByTestId("collection-summary")).toContainText("3 of 5 passed, 2 failed");
  await expect(card.locator('[data-call="count"]').getByTestId("collection-call-change")).toHaveText("broke");
  await expect(card.locator('[data-call="wrong"]').getByTestId("collection-call-change")).toHaveText("same");
  await expect(card.getByTestId("collection-history")).toBeVisible();
  await shots(page, "collections");
});

test("Try it → Save to collection drafts the call from the result and starts a collection in the source root", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${server.origin}/tools/sample_word_count`);
  await page.locator('[data-field="text"]').locator("input, textarea").first().fill("alpha beta");
  await page.getByTestId("try-it-run").click();
  await expect(page.getByTestId("try-it-result-text")).toHaveText("words=2 lines=1 chars=10");
  await page.getByTestId("save-call-open").click();
  const dialog = page.getByTestId("save-call-dialog");
  const text = dialog.getByTestId("save-call-text");
  await expect(text).toHaveValue("name: sample_word_count\ntool: sample_word_count\ninput:\n  text: alpha beta\nexpect:\n  equals: words=2 lines=1 chars=10\n");
  // The collections of the source root are offered first; a new file is one choice away.
  await expect(dialog.getByTestId("save-call-file")).toHaveValue("checks/checks.calls.yaml");
  await dialog.getByTestId("save-call-file").selectOption({ label: "New collection file…" });
  await expect(dialog.getByTestId("save-call-new-name")).toHaveValue("collections/sample_word_count.calls.yaml");
  await shots(page, "save-call-dialog");

  // Outside the source root: refused with the reason, nothing written.
  await dialog.getByTestId("save-call-new-name").fill("../outside");
  await dialog.getByTestId("save-call-save").click();
  await expect(dialog.getByTestId("save-call-problem")).toContainText("source root");
  expect(fs.existsSync(path.join(sourceRoot, "../outside.calls.yaml"))).toBe(false);

  await dialog.getByTestId("save-call-new-name").fill("collections/words");
  await dialog.getByTestId("save-call-save").click();
  await expect(dialog).toBeHidden();
  expect(fs.readFileSync(path.join(sourceRoot, "collections/words.calls.yaml"), "utf8")).toContain("equals: words=2 lines=1 chars=10");

  await page.goto(`${server.origin}/collections`);
  const card = page.locator('[data-testid="collection"][data-key="source:collections/words.calls.yaml"]');
  await expect(card.getByTestId("collection-call")).toHaveCount(1);
  await card.getByTestId("collection-run").click();
  await expect(card.getByTestId("collection-call-verdict")).toHaveAttribute("data-verdict", "pass");
});
