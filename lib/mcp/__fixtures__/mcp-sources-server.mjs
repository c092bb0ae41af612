#!/usr/bin/env node
// A stdio MCP server for the Sources tests: text, image and binary resources, a template with
// completion, a subscribable resource that changes on request, prompts with a completable
// argument, a log message, and a tool that reports progress until it is cancelled. With
// `--no-counter` it offers no fixture://counter (a server whose resource went away across a reload).
import { z } from "zod";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from "@modelcontextprotocol/sdk/types.js";

// A 1×1 PNG.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const COLOURS = ["red", "green", "blue"];

const server = new McpServer({ name: "toolroom-sources-server", version: "1.2.0" }, { capabilities: { logging: {}, resources: { subscribe: true } } });
let counter = 0;

server.registerResource("notes", "fixture://notes.txt", { mimeType: "text/plain", description: "Plain notes." }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: "text/plain", text: "the notes\nsecond line" }],
}));
server.registerResource("pixel", "fixture://pixel.png", { mimeType: "image/png" }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: "image/png", blob: PNG }] }));
server.registerResource("archive", "fixture://data.bin", { mimeType: "application/octet-stream" }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: "application/octet-stream", blob: Buffer.from([0, 1, 2, 3]).toString("base64") }],
}));
if (!process.argv.includes("--no-counter")) server.registerResource("counter", "fixture://counter", { mimeType: "text/plain" }, async (uri) => ({ contents: [{ uri: uri.href, text: `count ${counter}` }] }));
server.registerResource(
  "colour",
  new ResourceTemplate("fixture://colours/{name}", { list: undefined, complete: { name: (value) => COLOURS.filter((c) => c.startsWith(value)) } }),
  { mimeType: "text/plain" },
  async (uri, { name }) => ({ contents: [{ uri: uri.href, text: `colour ${name}` }] }),
);
server.registerPrompt(
  "greet",
  { description: "Greets someone in a colour.", argsSchema: { who: z.string().describe("Whom to greet"), colour: completable(z.string(), (v) => COLOURS.filter((c) => c.startsWith(v))) } },
  ({ who, colour }) => ({ messages: [{ role: "user", content: { type: "text", text: `Say hello to ${who} in ${colour}.` } }] }),
);
server.registerTool("bump", { description: "Changes fixture://counter and notifies subscribers." }, async () => {
  counter++;
  await server.server.sendResourceUpdated({ uri: "fixture://counter" });
  await server.sendLoggingMessage({ level: "info", logger: "fixture", data: `counter is ${counter}` });
  return { content: [{ type: "text", text: `count ${counter}` }] };
});
server.registerTool("picture", { description: "Returns an image and a sound." }, async () => ({
  content: [
    { type: "text", text: "a pixel" },
    { type: "image", data: PNG, mimeType: "image/png" },
    { type: "audio", data: Buffer.from("RIFF").toString("base64"), mimeType: "audio/wav" },
  ],
}));
server.registerTool("crawl", { description: "Reports progress every 50 ms until cancelled." }, async (extra) => {
  const token = extra._meta?.progressToken;
  for (let i = 1; !extra.signal.aborted; i++) {
    if (token !== undefined) await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: i, total: 1000, message: `step ${i}` } });
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { content: [{ type: "text", text: "stopped" }] };
});
// McpServer answers no subscriptions itself; this one keeps none (bump notifies regardless).
server.server.setRequestHandler(SubscribeRequestSchema, async () => ({}));
server.server.setRequestHandler(UnsubscribeRequestSchema, async () => ({}));
// A request that never answers: the client's time bound is what ends it.
server.registerResource("stuck", "fixture://stuck", {}, () => new Promise(() => {}));

await server.connect(new StdioServerTransport());
