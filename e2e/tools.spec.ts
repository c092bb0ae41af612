import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ToolsPage } from "./pages/tools";

const notePath = (title: string) => path.resolve(".toolroom", "notes", `${title}.md`);

/** The note's folders, deepest first: .toolroom/notes, .toolroom. */
const noteDirs = (file: string) => [path.dirname(file), path.dirname(path.dirname(file))];

/**
 * Removes the note and the folders its writing made (the suite's source root is this checkout:
 * nothing may stay behind); `made` are the folders that were not there before.
 */
function removeNote(file: string, made: string[]): void {
  fs.rmSync(file, { force: true });
  for (const dir of made) if (fs.existsSync(dir) && fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
}

test("/tools lists the sample plugin with its package and version, and search narrows to one row", async ({ page }) => {
  const tools = new ToolsPage(page);
  await tools.gotoList();
  await expect(tools.row("sample_word_count").getByTestId("tool-package")).toHaveText("[toolroom-plugin-sample] 1.2.0");
  await expect(tools.row("sample_save_note")).toContainText("asks before every note it writes");
  await expect(tools.row("read_file")).toBeVisible();

  await tools.search.fill("sample_word_count");
  await expect(tools.rows).toHaveCount(1);
  await expect(tools.rows.first()).toHaveAttribute("data-tool", "sample_word_count");
  await tools.search.fill("no-such-tool-anywhere");
  await expect(page.getByTestId("tools-empty")).toBeVisible();
});

test("the skipped fixture plugin shows in the diagnostics panel with its reason", async ({ page }) => {
  const tools = new ToolsPage(page);
  await tools.gotoList();
  const broken = tools.diagnostics.filter({ hasText: "fixture-broken-import" });
  await expect(broken).toHaveCount(1);
  await expect(broken).toContainText("explodes");
  await expect(broken).toContainText("import failed");
  await expect(broken.getByTestId("diagnostic-message")).toContainText("this plugin is broken on purpose");
  // Where it failed, as file:line:column with the code around it (not a stack of node:internal frames).
  await expect(broken.getByTestId("diagnostic-location")).toContainText("examples/plugins/fixtures/broken-import/index.js:2:7");
  await expect(broken.getByTestId("diagnostic-frame")).toContainText('> 2 | throw new Error("fixture: this plugin is broken on purpose");');
});

test("a tool's page shows its docs, schema table and raw JSON, package and highlighted source", async ({ page }) => {
  const tools = new ToolsPage(page);
  await tools.gotoList();
  await tools.row("sample_save_note").click();
  await expect(page).toHaveURL(/\/tools\/sample_save_note$/);
  await expect(tools.docs).toContainText("Save a short note to .toolroom/notes/<title>.md");
  const args = page.locator('[data-testid="doc-section"][data-section="Args"]');
  await expect(args.locator("dt")).toHaveText(["title", "body"]);

  await expect(tools.schemaRow("title")).toContainText("string");
  await expect(tools.schemaRow("title")).toContainText("required");
  await expect(tools.schemaRow("title")).toContainText("File name without extension");
  await expect(tools.schemaRow("body")).toContainText("≤ 10000 chars");
  await page.getByTestId("tab-schema-json").click();
  await expect(page.getByTestId("schema-json")).toContainText('"required"');

  await expect(page.getByTestId("package-name")).toHaveText("toolroom-plugin-sample");
  await expect(page.getByTestId("package-version")).toHaveText("1.2.0");
  await expect(page.getByTestId("package-entry")).toHaveText("./dist/tools.js#sampleSaveNote");
  // The source map of dist/tools.js leads to the TypeScript the author wrote.
  await expect(page.getByTestId("source-file")).toHaveText("src/tools.ts");
  await expect(page.getByTestId("source-compiled")).toContainText("dist/tools.js");
  // Highlighted by shiki (coloured token spans), with the defining export marked.
  await expect(tools.source.locator("pre.shiki")).toBeVisible();
  await expect(tools.source.locator("pre.shiki span[style*='--shiki-dark']").first()).toBeAttached();
  const marked = tools.source.locator(".line.hl").first();
  await expect(marked).toContainText("export const sampleSaveNote");
  // The code box (not the page) is scrolled so the export is visible inside it.
  const inBox = await page.getByTestId("source-scroll").evaluate((box) => {
    const line = box.querySelector<HTMLElement>(".line.hl");
    return !!line && line.offsetTop >= box.scrollTop && line.offsetTop < box.scrollTop + box.clientHeight;
  });
  expect(inBox).toBe(true);
});

test("built-ins show this repository's source; unknown tools get a 404", async ({ page }) => {
  const tools = new ToolsPage(page);
  await tools.gotoTool("read_file");
  await expect(page.getByTestId("source-file")).toHaveText("lib/builtins/files.ts");
  await expect(tools.source.locator(".line.hl").first()).toContainText("export const readFile");

  const response = await page.goto("/tools/no_such_tool");
  expect(response?.status()).toBe(404);
  await expect(page.getByTestId("tool-not-found")).toBeVisible();
});

test("try-it on sample_word_count returns the result, and the call is kept for run again", async ({ page }) => {
  const tools = new ToolsPage(page);
  await tools.gotoTool("sample_word_count");
  await page.evaluate(() => window.localStorage.removeItem("toolroom:try-it:sample_word_count"));
  await tools.run.click();
  await expect(page.getByTestId("field-issue")).toBeVisible();
  await expect(tools.result).toHaveCount(0);

  await tools.field("text").fill("one two three\nfour");
  await tools.run.click();
  await expect(tools.result).toHaveAttribute("data-status", "done");
  await expect(tools.resultText).toHaveText("words=4 lines=2 chars=18");
  await expect(page.getByTestId("try-it-duration")).toContainText("ms");

  await page.reload();
  await expect(page.getByTestId("recent-call")).toHaveCount(1);
  await page.getByTestId("recent-run-again").click();
  await expect(tools.resultText).toHaveText("words=4 lines=2 chars=18");
});

test("try-it on sample_save_note asks first: Deny runs nothing, Approve writes the note", async ({ page }) => {
  const tools = new ToolsPage(page);
  const title = `e2e-${Date.now()}`;
  const file = notePath(title);
  const made = noteDirs(file).filter((dir) => !fs.existsSync(dir));
  await tools.gotoTool("sample_save_note");

  await tools.field("title").fill(title);
  await tools.field("body").fill("hello from the e2e suite");
  await tools.run.click();
  await expect(tools.dialog).toBeVisible();
  await expect(page.getByTestId("approval-tool")).toHaveText("sample_save_note");
  await expect(page.getByTestId("approval-args")).toContainText(title);
  await page.getByTestId("approval-reason").fill("not today");
  await page.getByTestId("approval-deny").click();
  await expect(tools.dialog).toBeHidden();
  await expect(tools.result).toHaveAttribute("data-status", "denied");
  await expect(tools.resultText).toContainText(`declined the note "${title}" (reason: not today)`);
  expect(fs.existsSync(file)).toBe(false);

  try {
    await tools.run.click();
    await expect(tools.dialog).toBeVisible();
    await page.getByTestId("approval-approve").click();
    await expect(tools.result).toHaveAttribute("data-status", "done");
    await expect(tools.resultText).toHaveText(`Wrote .toolroom/notes/${title}.md`);
    expect(fs.readFileSync(file, "utf8")).toBe("hello from the e2e suite\n");
  } finally {
    removeNote(file, made);
  }
});

test("the invoke endpoint is the authority: no approval, no run", async ({ request }) => {
  const title = `e2e-forged-${Date.now()}`;
  const input = { title, body: "x" };
  const first = await request.post("/api/tools/sample_save_note/invoke", { data: { input } });
  expect((await first.json()).status).toBe("approval-required");
  const forged = await request.post("/api/tools/sample_save_note/invoke", { data: { input, approvalId: "forged", decision: "approve" } });
  expect(forged.status()).toBe(404);
  const cross = await request.post("/api/tools/sample_word_count/invoke", { data: { input: { text: "a" } }, headers: { origin: "https://evil.example" } });
  expect(cross.status()).toBe(403);
  expect(fs.existsSync(notePath(title))).toBe(false);
});

test("screenshots of both pages, light and dark, at 1280 and 768 px", async ({ page }) => {
  const tools = new ToolsPage(page);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1280, 768]) {
      await page.setViewportSize({ width, height: 900 });
      await tools.gotoList();
      await expect(tools.rows.first()).toBeVisible();
      await tools.screenshot(`tools-list-${scheme}-${width}`, width);
      await tools.gotoTool("sample_save_note");
      await expect(tools.source.locator("pre.shiki")).toBeVisible();
      // No layout break: nothing wider than the viewport at the page level.
      const overflow = await page.evaluate(() => {
        const main = document.querySelector("main");
        return main ? main.scrollWidth - main.clientWidth : 0;
      });
      expect(overflow, `horizontal overflow at ${width}px`).toBeLessThanOrEqual(0);
      await tools.screenshot(`tools-page-${scheme}-${width}`, width);
    }
  }
});
