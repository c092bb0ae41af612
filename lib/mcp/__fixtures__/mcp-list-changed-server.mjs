#!/usr/bin/env node
// A stdio MCP server whose lists change while a client is connected: SIGUSR1 (or `--add-after=MS`
// after it connected) adds the tool `late_tool`, the resource fixture://late and the prompt
// `late_prompt`; SIGUSR2 removes them. The SDK's McpServer sends the matching
// `notifications/*/list_changed` itself. The tool `flood` sends many of them in a burst, and
// `lists` says how many list requests the server has answered, so a test can count re-lists on
// the server's side. `--pid-file=PATH` writes its pid there, for a test that sends the signals;
// `--late-name=NAME` names the late tool otherwise (to clash with another tool).
import fs from "node:fs";
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const option = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const server = new McpServer({ name: "toolroom-list-changed-server", version: "1.0.0" });
const answered = { "tools/list": 0, "resources/list": 0, "prompts/list": 0 };

// What it offers from the start: a tool, a resource and a prompt (so each capability, with
// listChanged, is in the handshake: McpServer declares one on its first registration).
server.registerTool("flood", { description: "Sends `n` list_changed notifications of each kind at once.", inputSchema: { n: z.number().int() } }, async ({ n }) => {
  for (let i = 0; i < n; i++) {
    server.sendToolListChanged();
    server.sendResourceListChanged();
    server.sendPromptListChanged();
  }
  return { content: [{ type: "text", text: `sent ${n}` }] };
});
server.registerTool("lists", { description: "How many list requests this server has answered, as JSON." }, async () => ({
  content: [{ type: "text", text: JSON.stringify(answered) }],
}));
server.registerResource("first", "fixture://first", { mimeType: "text/plain" }, async (uri) => ({ contents: [{ uri: uri.href, text: "first" }] }));
server.registerPrompt("first_prompt", { description: "Offered from the start." }, () => ({ messages: [{ role: "user", content: { type: "text", text: "first" } }] }));

let late = null;
function addLate() {
  if (late) return;
  late = [
    server.registerTool(
      option("late-name") ?? "late_tool",
      { description: "Added after the client connected.", inputSchema: { word: z.string() }, annotations: { readOnlyHint: true } },
      async ({ word }) => ({ content: [{ type: "text", text: `late ${word}` }] }),
    ),
    server.registerResource("late", "fixture://late", { mimeType: "text/plain" }, async (uri) => ({ contents: [{ uri: uri.href, text: "late" }] })),
    server.registerPrompt("late_prompt", { description: "Added after the client connected." }, () => ({
      messages: [{ role: "user", content: { type: "text", text: "late" } }],
    })),
  ];
}
function removeLate() {
  for (const registered of late ?? []) registered.remove();
  late = null;
}
process.on("SIGUSR1", addLate);
process.on("SIGUSR2", removeLate);

const transport = new StdioServerTransport();
await server.connect(transport);
// Counts every list request as it arrives (the handlers are McpServer's own).
const receive = transport.onmessage;
transport.onmessage = (message, extra) => {
  if ("method" in message && message.method in answered) answered[message.method]++;
  receive?.(message, extra);
};
const pidFile = option("pid-file");
if (pidFile) fs.writeFileSync(pidFile, String(process.pid));
const addAfter = option("add-after");
if (addAfter) setTimeout(addLate, Number(addAfter));
