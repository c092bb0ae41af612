import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { McpSourcesPanel } from "./pages/mcp-sources";
import { shotPath } from "./pages/shots";
import { ToolsPage } from "./pages/tools";

// e2e/fixtures/toolroom.e2e.yaml configures fs (server-filesystem on e2e/fixtures/runs), everything
// (server-everything over stdio) and broken (node on a script that does not exist).

test("/tools shows the MCP servers: two connected with their tools, one failed with its stderr", async ({ page }) => {
  const tools = new ToolsPage(page);
  const sources = new McpSourcesPanel(page);
  await tools.gotoList();

  await expect(sources.rows).toHaveCount(3);
  await expect(sources.panel.getByTestId("sources-count")).toHaveText("2 connected · 1 failed");
  await expect(sources.row("mcp:fs")).toHaveAttribute("data-state", "connected");
  await expect(sources.row("mcp:fs").getByTestId("source-tools")).toHaveText("14 tools");
  await expect(sources.row("mcp:fs").getByTestId("source-server")).toHaveText("secure-filesystem-server 0.2.0 · prefix fs_");
  await expect(sources.row("mcp:everything")).toHaveAttribute("data-state", "connected");
  await expect(sources.row("mcp:everything").getByTestId("source-server")).toContainText("Everything Reference Server 2.0.0");

  const broken = sources.row("mcp:broken");
  await expect(broken).toHaveAttribute("data-state", "failed");
  await expect(broken.getByTestId("source-error")).toHaveText("the server exited before it answered");
  await expect(broken.getByTestId("source-target")).toContainText("node ./e2e/fixtures/no-such-mcp-server.js");
  // Its stderr is on the diagnostics panel, open, and "Why?" leads there.
  const diagnostic = sources.diagnostic("mcp:broken");
  await expect(diagnostic).toContainText("server failed");
  await expect(diagnostic.getByTestId("diagnostic-output")).toContainText("Cannot find module");
  await broken.getByRole("link", { name: "Why?" }).click();
  await expect(page).toHaveURL(/#diagnostic-mcp-broken-/);

  // A server's tool count narrows the list to its tools, each with the mcp:<name> badge.
  await sources.showTools("mcp:fs");
  await expect(tools.rows).toHaveCount(14);
  await expect(tools.row("fs_list_directory").getByTestId("tool-package")).toHaveText("[mcp:fs] 0.2.0");
  await expect(tools.row("fs_list_directory").getByTestId("badge-mcp")).toHaveText("mcp:fs");
  await expect(tools.row("fs_write_file")).toContainText("may ask");
  await expect(tools.row("fs_list_directory")).not.toContainText("may ask");
});

test("an MCP tool's page names its server instead of showing source, and try-it runs it", async ({ page }) => {
  const tools = new ToolsPage(page);
  await tools.gotoList();
  await tools.row("ev_echo").click();
  await expect(page).toHaveURL(/\/tools\/ev_echo$/);
  await expect(page.getByTestId("tool-source")).toHaveText("[mcp:everything] 2.0.0");
  await expect(tools.docs).toContainText("Echoes back the input string");
  await expect(tools.schemaRow("message")).toContainText("required");
  await expect(page.getByTestId("mcp-source")).toContainText("Served by MCP server everything, as its tool echo.");
  await expect(page.getByTestId("package-entry")).toHaveText(/server-everything\/dist\/index\.js stdio$/);
  await expect(page.getByTestId("source-view")).toHaveCount(0);

  await page.evaluate(() => window.localStorage.removeItem("toolroom:try-it:ev_echo"));
  await tools.field("message").fill("hello over MCP");
  await tools.run.click();
  await expect(tools.result).toHaveAttribute("data-status", "done");
  await expect(tools.resultText).toHaveText("Echo: hello over MCP");
});

test("a destructive MCP tool asks first in try-it; Deny writes nothing", async ({ page }) => {
  const tools = new ToolsPage(page);
  const target = path.resolve("e2e/fixtures/runs", `mcp-e2e-${Date.now()}.txt`);
  await tools.gotoTool("fs_write_file");
  await tools.field("path").fill(target);
  await tools.field("content").fill("should not be written");
  await tools.run.click();
  await expect(tools.dialog).toBeVisible();
  await expect(page.getByTestId("approval-tool")).toHaveText("fs_write_file");
  await page.getByTestId("approval-deny").click();
  await expect(tools.result).toHaveAttribute("data-status", "denied");
  expect(fs.existsSync(target)).toBe(false);
});

test("screenshots of /tools with the MCP servers, light and dark", async ({ page }) => {
  const tools = new ToolsPage(page);
  const sources = new McpSourcesPanel(page);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1280, height: 900 });
    await tools.gotoList();
    await expect(sources.rows).toHaveCount(3);
    await tools.screenshot(`mcp-tools-list-${scheme}-1280`, 1280);
    // The panels at full size: the page shot is too tall to read them in.
    await sources.panel.screenshot({ path: shotPath(`mcp-sources-panel-${scheme}.png`) });
    await sources.diagnostic("mcp:broken").screenshot({ path: shotPath(`mcp-broken-diagnostic-${scheme}.png`) });
    await tools.gotoTool("fs_list_directory");
    await tools.screenshot(`mcp-tool-page-${scheme}-1280`, 1280);
  }
});
