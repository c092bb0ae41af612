import { expect, test } from "@playwright/test";
import fs from "node:fs";
import { ChatPage } from "./pages/chat";
import { marker, removeMarkers } from "./markers";
import { McpHttpClient } from "./pages/mcp-client";

test("an SDK client lists and calls tools over HTTP; a confirming call runs on accept only, and both show in chat history", async ({ baseURL, page }) => {
  const yes = await McpHttpClient.connect(baseURL!, "e2e-mcp-yes", "accept");
  const no = await McpHttpClient.connect(baseURL!, "e2e-mcp-no", "decline");
  const ran = marker("mcp-yes");
  const refused = marker("mcp-no");
  try {
    const { tools } = await yes.client.listTools();
    expect(tools.find((t) => t.name === "read_file")?.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((t) => t.name === "run_terminal_command")?.annotations?.destructiveHint).toBe(true);
    expect((await yes.callText("read_file", { path: "package.json" })).text).toContain('"name": "toolroom"');

    expect((await yes.callText("run_terminal_command", { command: `touch ${ran}` })).isError).toBe(false);
    expect(yes.asked[0]).toContain(`touch ${ran}`);
    expect(fs.existsSync(ran)).toBe(true);

    const denied = await no.callText("run_terminal_command", { command: `touch ${refused}` });
    expect(denied.text).toMatch(/declined in the MCP client/);
    expect(denied.isError).toBe(true);
    expect(fs.existsSync(refused)).toBe(false);
  } finally {
    await yes.close();
    await no.close();
    removeMarkers();
  }

  // The audit: each MCP session is a chat in the history, with the decision on its cards.
  const chat = new ChatPage(page);
  await page.goto("/chat");
  await page.getByTestId("chat-history-item").filter({ hasText: "MCP: e2e-mcp-no 1.0.0" }).getByRole("link").click();
  await expect(chat.toolCards("run_terminal_command").getByTestId("tool-call-status")).toHaveText("denied: declined in the MCP client");
  await page.getByTestId("chat-history-item").filter({ hasText: "MCP: e2e-mcp-yes 1.0.0" }).getByRole("link").click();
  await expect(chat.toolCards("read_file").getByTestId("tool-call-status")).toHaveText("done");
  await expect(chat.toolCards("run_terminal_command").getByTestId("tool-call-status")).toHaveText("done · approved");
  await expect(page.getByTestId("called-by").first()).toHaveText("called over MCP by e2e-mcp-yes 1.0.0");
});
