// "Save as eval case" end to end on a server of its own (a temp source root with evals/, so the
// saved suite never lands in the tree): a chat turn becomes a case, and /evals counts it.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { EvalsPage } from "./pages/evals";
import { startOwnServer, type OwnServer } from "./pages/next-server";
import { shotPath } from "./pages/shots";

let server: OwnServer;
let suiteFile: string;

const SUITE = `# Cases about notes.txt
name: mine
cases:
  - name: lists
    prompt: list files
    expect: { calls: [{ tool: list_files }] }
`;

test.beforeAll(async () => {
  server = await startOwnServer("e2e-save-case", (state) => {
    const sourceRoot = path.join(state, "src");
    fs.mkdirSync(path.join(sourceRoot, "evals"), { recursive: true });
    fs.writeFileSync(path.join(sourceRoot, "notes.txt"), "alpha\nbeta\n");
    suiteFile = path.join(sourceRoot, "evals", "mine.eval.yaml");
    fs.writeFileSync(suiteFile, SUITE);
    return JSON.stringify({ sourceRoot, runsRoot: path.join(state, "runs") });
  });
});

test.afterAll(async () => {
  await server?.stop();
});

test("save a chat turn as an eval case: the dialog is prefilled, checked by the server, and /evals shows the suite with one case more", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const evals = new EvalsPage(page);
  await evals.goto(server.origin);
  await expect(evals.suite("mine").getByRole("cell").nth(2)).toHaveText("1");

  await page.goto(`${server.origin}/chat`);
  await page.getByTestId("composer-input").fill("read notes.txt");
  await page.getByTestId("composer-input").press("Enter");
  const answer = page.getByTestId("message-assistant").last();
  await expect(answer.getByTestId("tool-call")).toBeVisible();
  await expect(page.getByTestId("composer-send")).toBeVisible();

  await expect(answer.getByTestId("save-case-open")).toBeVisible();
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => document.documentElement.classList.toggle("dark", t === "dark"), theme);
    await answer.screenshot({ path: shotPath(`save-case-action-${theme}.png`) });
  }
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
  await answer.getByTestId("save-case-open").click();
  const dialog = page.getByTestId("save-case-dialog");
  const text = dialog.getByTestId("save-case-text");
  await expect(text).toHaveValue(
    /^name: read-notes-txt\nprompt: read notes\.txt\nexpect:\n {2}calls:\n {4}- tool: read_file\n {6}args:\n {8}path: notes\.txt\n$/,
  );
  await expect(dialog.getByTestId("save-case-file")).toHaveValue("mine.eval.yaml");

  // The server checks it against the suite schema; the reasons show in the dialog, nothing is written.
  const draft = await text.inputValue();
  await text.fill(draft.replace("name: read-notes-txt", "name: read notes").replace("tool: read_file", "tool: []"));
  await dialog.getByTestId("save-case-save").click();
  await expect(dialog.getByTestId("save-case-problem")).toContainText("key name:");
  await expect(dialog.getByTestId("save-case-problem")).toContainText("key expect.calls.0.tool:");
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => document.documentElement.classList.toggle("dark", t === "dark"), theme);
    await page.screenshot({ path: shotPath(`save-case-error-${theme}.png`) });
  }
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
  expect(fs.readFileSync(suiteFile, "utf8")).toBe(SUITE);

  // A name the suite has: refused (409), shown the same way.
  await text.fill(draft.replace("name: read-notes-txt", "name: lists"));
  await dialog.getByTestId("save-case-save").click();
  await expect(dialog.getByTestId("save-case-problem")).toContainText('has a case named "lists" already');

  await text.fill(draft);
  await dialog.getByTestId("save-case-check").click();
  await expect(dialog.getByTestId("save-case-checked")).toContainText("evals/mine.eval.yaml would have 2 cases");
  await dialog.getByTestId("save-case-save").click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Saved "read-notes-txt" into evals/mine.eval.yaml (2 cases)')).toBeVisible();
  // The file's own lines are kept, the case after them.
  expect(fs.readFileSync(suiteFile, "utf8").startsWith(SUITE)).toBe(true);

  await evals.goto(server.origin);
  await expect(evals.suite("mine").getByRole("cell").nth(2)).toHaveText("2");
});
