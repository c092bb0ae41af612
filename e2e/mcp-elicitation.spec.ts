import { expect, test } from "@playwright/test";
import { shotPath } from "./pages/shots";
import { ToolsPage } from "./pages/tools";

// server-everything (e2e/fixtures/toolroom.e2e.yaml, prefix ev_) offers trigger-elicitation-request
// only to a client that declares elicitation: its form has every primitive and enum variant.

test("a consumed MCP server's elicitation opens the form in try-it, defaults filled, and the answer reaches the server", async ({ page }) => {
  const tools = new ToolsPage(page);
  await tools.gotoTool("ev_trigger-elicitation-request");
  await page.evaluate(() => window.localStorage.removeItem("toolroom:try-it:ev_trigger-elicitation-request"));
  await tools.run.click();

  const dialog = page.getByTestId("elicitation-dialog");
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId("elicitation-message")).toHaveText("Please provide inputs for the following fields:");
  // SEP-1034 defaults are filled in; SEP-1330 enums are a select and checkboxes.
  await expect(page.getByTestId("elicitation-field-firstLine")).toHaveValue("It was a dark and stormy night.");
  await expect(page.getByTestId("elicitation-field-integer")).toHaveValue("42");
  await expect(page.getByTestId("elicitation-field-untitledSingleSelectEnum")).toHaveValue("Monica");
  await expect(page.getByTestId("elicitation-field-name")).toBeFocused();

  // A required field left empty is refused in the form; nothing is sent yet.
  await page.getByTestId("elicitation-accept").click();
  await expect(page.getByTestId("elicitation-error-name")).toHaveText("required");
  await page.getByTestId("elicitation-field-name").fill("Ada Lovelace");
  await page.getByTestId("elicitation-field-untitledSingleSelectEnum").selectOption("Phoebe");
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: shotPath(`elicitation-dialog-${scheme}.png`) });
  }
  // Keyboard: Enter in a field sends the form.
  await page.getByTestId("elicitation-field-name").press("Enter");
  await expect(dialog).toBeHidden();

  await expect(tools.result).toHaveAttribute("data-status", "done");
  await expect(tools.resultText).toContainText("User provided the requested information");
  await expect(tools.resultText).toContainText("Ada Lovelace");
  await expect(tools.resultText).toContainText("Phoebe");
});

test("Decline and Esc (cancel) reach the server as such", async ({ page }) => {
  const tools = new ToolsPage(page);
  await tools.gotoTool("ev_trigger-elicitation-request");
  await tools.run.click();
  await page.getByTestId("elicitation-decline").click();
  await expect(tools.resultText).toContainText("User declined");

  await tools.run.click();
  await expect(page.getByTestId("elicitation-dialog")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(tools.resultText).toContainText("User cancelled");
});
