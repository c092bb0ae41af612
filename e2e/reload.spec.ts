// Live reload (issue 21, item 1): a plugin written while the server runs appears on /tools with a
// notice, an edit counts as a change, a broken toolroom.yaml keeps the last good tools and says
// why, and a model added to llms appears in the chat's model picker. Its own server and settings.
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { startOwnServer, type OwnServer } from "./pages/next-server";
import { SourcesPage } from "./pages/sources";
import { shotPath } from "./pages/shots";

test.describe.configure({ timeout: 240_000 });

let server: OwnServer;

const SETTINGS = (state: string, extra = "") =>
  `plugins: { paths: [${JSON.stringify(path.join(state, "plugins"))}] }\nllms: { offline: { provider: offline }${extra} }\n`;

function writePlugin(description: string) {
  const dir = path.join(server.dir, "plugins", "hello-plugin");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "hello-plugin", version: "1.0.0", type: "module", toolroom: { tools: { say_hello: "./tools.js#sayHello" } } }),
  );
  fs.writeFileSync(
    path.join(dir, "tools.js"),
    `export const sayHello = { name: "say_hello", description: ${JSON.stringify(description)}, input: { jsonSchema: { type: "object", properties: { name: { type: "string" } } } },
  confirm: { evaluate: () => true, notAdmitted: (_i, why) => \`Not greeted: \${why}\` }, execute: ({ name }) => \`Hello, \${name}!\` };\n`,
  );
}

async function shoot(page: Page, name: string) {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: shotPath(`${name}-${scheme}.png`), fullPage: false });
  }
  await page.emulateMedia({ colorScheme: "light" });
}

test.beforeAll(async () => {
  server = await startOwnServer("reload", (state) => {
    fs.mkdirSync(path.join(state, "plugins"));
    return SETTINGS(state);
  });
});

test.afterAll(async () => {
  await server?.stop();
});

test("a plugin written, edited and a settings file broken and fixed while the server runs", async ({ page }) => {
  await page.goto(`${server.origin}/tools`);
  await expect(page.getByTestId("tool-row").first()).toBeVisible();
  await expect(page.getByTestId("reload-notice")).toHaveCount(0);

  writePlugin("Greet someone by name.");
  const notice = page.getByTestId("reload-notice");
  await expect(notice).toContainText(/Reloaded \d\d:\d\d.*\+1 tool/, { timeout: 30_000 });
  await expect(page.locator('[data-tool="say_hello"]')).toBeVisible();

  writePlugin("Greet someone by name, politely.");
  await expect(notice).toContainText("1 changed", { timeout: 30_000 });
  await expect(page.locator('[data-tool="say_hello"]')).toContainText("politely");
  await shoot(page, "reload-notice");

  fs.writeFileSync(server.config, `${SETTINGS(server.dir)}plugins: [\n`);
  await expect(page.locator('[data-testid="reload-notice"][data-ok="false"]')).toContainText("Reload failed", { timeout: 30_000 });
  await expect(page.locator('[data-tool="say_hello"]')).toBeVisible();
  await shoot(page, "reload-failed");

  // A model added to llms: the open chat page's picker lists it without a restart.
  await page.goto(`${server.origin}/chat`);
  const picker = page.getByTestId("model-picker");
  await expect(picker).toBeVisible();
  fs.writeFileSync(server.config, SETTINGS(server.dir, ", local: { provider: openai-compatible, baseURL: 'http://127.0.0.1:9/v1', model: qwen2.5-coder }"));
  await expect(picker.locator("option", { hasText: "qwen2.5-coder" })).toHaveCount(1, { timeout: 30_000 });
});

test("an MCP server whose entry changed reconnects with its subscription and log; an unchanged one keeps its connection", async ({ page }) => {
  const fixture = path.resolve("lib/mcp/__fixtures__/mcp-sources-server.mjs");
  const withServers = (edition: string) =>
    `${SETTINGS(server.dir)}mcpServers:\n  kept: { command: node, args: [${JSON.stringify(fixture)}], prefix: k_ }\n  edited: { command: node, args: [${JSON.stringify(fixture)}, "${edition}"], prefix: e_ }\n`;
  fs.writeFileSync(server.config, withServers("--edition=1"));
  const sources = new SourcesPage(page);
  await expect(async () => {
    await page.goto(`${server.origin}/sources?server=edited`);
    await expect(sources.link("kept")).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(sources.panel.getByTestId("source-state")).toHaveText("connected");
  await sources.resource("fixture://counter").click();
  await sources.pane.getByTestId("resource-subscribe").click();
  await expect(sources.pane.getByTestId("resource-updates")).toContainText("subscribed");
  await expect(page.getByTestId("source-reconnected")).toHaveCount(0);

  fs.writeFileSync(server.config, withServers("--edition=2"));
  await expect(page.getByTestId("source-reconnected")).toContainText("settings changed", { timeout: 30_000 });
  await expect(page.getByTestId("source-reconnected")).toContainText("its subscription was sent again");
  // The open resource is still subscribed: on the new connection, sent again.
  await expect(sources.pane.getByTestId("resource-updates")).toContainText("subscribed");
  await sources.tab("log");
  await expect(page.getByTestId("rpc-event")).toHaveText(["reconnected: settings changed"]);
  await expect(sources.logEntries("initialize")).toHaveCount(2);
  // Newest first: the subscription sent again, then the new handshake, then the reconnect line.
  const methods = await sources.logEntries().evaluateAll((entries) => entries.map((e) => e.getAttribute("data-method")));
  expect(methods.indexOf("resources/subscribe")).toBeLessThan(methods.indexOf("initialize"));
  expect(methods.indexOf("initialize")).toBeLessThan(methods.indexOf("reconnect"));
  await shoot(page, "sources-reconnected");

  await sources.link("kept").click();
  await expect(sources.panel).toHaveAttribute("data-source", "kept");
  await sources.tab("log");
  await expect(sources.logEntries("initialize")).toHaveCount(1);
  await expect(page.getByTestId("source-reconnected")).toHaveCount(0);

  // The resource went away with the change: the notice and the log say it was not subscribed again.
  await sources.link("edited").click();
  await expect(sources.panel).toHaveAttribute("data-source", "edited");
  fs.writeFileSync(server.config, withServers("--no-counter"));
  await expect(page.getByTestId("source-lost-subscription")).toContainText("fixture://counter (the server no longer offers it)", { timeout: 30_000 });
  await sources.tab("log");
  await expect(page.getByTestId("rpc-event").first()).toHaveText("fixture://counter: not subscribed again: the server no longer offers it");
  await shoot(page, "sources-lost-subscription");
});
