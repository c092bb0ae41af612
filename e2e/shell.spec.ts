import { expect, test } from "@playwright/test";
import { AppShellPage } from "./pages/app-shell";

test("the shell renders and every nav link leads to its page", async ({ page }) => {
  const shell = new AppShellPage(page);
  await page.goto("/");
  await expect(page).toHaveURL(/\/chat$/);
  await shell.expectRendered();
  await expect(page.getByTestId("footer-model")).toHaveText("Offline (scripted)");

  for (const [label, heading] of [
    ["tools", "Tools"],
    ["runs", "Runs"],
    ["settings", "Settings"],
    ["chat", "Chat"],
  ] as const) {
    await shell.nav(label).click();
    await expect(page).toHaveURL(new RegExp(`/${label}$`));
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expect(shell.nav(label)).toHaveAttribute("aria-current", "page");
  }
});

test("the theme follows the system and the toggle switches it, across reloads", async ({ page }) => {
  const shell = new AppShellPage(page);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/settings");
  expect(await shell.isDark()).toBe(true);

  await shell.themeToggle.click();
  expect(await shell.isDark()).toBe(false);
  await expect(page.locator("body")).toHaveCSS("background-color", "rgb(250, 250, 250)");
  await page.reload();
  expect(await shell.isDark()).toBe(false);

  await shell.themeToggle.click();
  expect(await shell.isDark()).toBe(true);
  await expect(page.locator("body")).toHaveCSS("background-color", "rgb(12, 12, 14)");
});

test("settings show where each value came from, with secrets masked", async ({ page }) => {
  await page.goto("/settings");
  const row = page.getByTestId("settings-row").filter({ hasText: "tools.run_terminal_command.enabled" });
  await expect(row).toContainText("toolroom.e2e.yaml");
  await expect(page.getByTestId("settings-row").filter({ hasText: "chat.maxSteps" })).toContainText("defaults");
  await expect(page.getByTestId("settings-table")).not.toContainText("sk-e2e-secret-never-shown-123456");
  await expect(page.getByTestId("settings-row").filter({ hasText: "llms.gpt.apiKey" })).toContainText("••••");
});
