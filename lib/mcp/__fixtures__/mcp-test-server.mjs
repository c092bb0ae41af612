#!/usr/bin/env node
// A small stdio MCP server for the client tests: tools with every annotation case, an error
// result, binary content, an elicitation, a name Toolroom must refuse, and a tool that makes the server exit.
// Written against the low-level Server so the tool list is sent exactly as written here.
import fs from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const object = { type: "object", properties: {} };
const TOOLS = [
  { name: "plain", description: "No annotations at all.", inputSchema: object },
  { name: "safe", description: "Reads only.\n\nSecond paragraph.", inputSchema: object, annotations: { readOnlyHint: true } },
  { name: "additive", title: "Additive tool", inputSchema: object, annotations: { readOnlyHint: false, destructiveHint: false } },
  { name: "wipe", description: "Destroys things.", inputSchema: object, annotations: { readOnlyHint: false, destructiveHint: true } },
  { name: "fail", description: "Always reports an error.", inputSchema: object, annotations: { readOnlyHint: true } },
  { name: "shout", description: "Upper-cases text.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, annotations: { readOnlyHint: true } },
  { name: "media", description: "Returns text, an image and a resource.", inputSchema: object, annotations: { readOnlyHint: true } },
  { name: "ask", description: "Asks the person for a name and a size (elicitation).", inputSchema: object, annotations: { readOnlyHint: true } },
  { name: "exit", description: "Makes the server exit.", inputSchema: object, annotations: { readOnlyHint: true } },
  { name: "bad name!", description: "A name no model API accepts.", inputSchema: object },
];

const server = new Server({ name: "toolroom-test-server", version: "3.1.4" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => {
  if (process.env.FAIL_LIST) throw new Error("the tool catalogue is unavailable");
  return { tools: TOOLS };
});
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const text = (value) => ({ content: [{ type: "text", text: value }] });
  switch (request.params.name) {
    case "fail":
      return { content: [{ type: "text", text: "disk on fire" }], isError: true };
    case "shout":
      return text(String(request.params.arguments?.text ?? "").toUpperCase());
    case "media":
      return {
        content: [
          { type: "text", text: "here you go" },
          { type: "image", data: Buffer.alloc(2048).toString("base64"), mimeType: "image/png" },
          { type: "resource", resource: { uri: "file:///notes.txt", mimeType: "text/plain", text: "the notes" } },
        ],
      };
    case "ask": {
      const answer = await server.elicitInput({
        message: "Which pizza?",
        requestedSchema: {
          type: "object",
          properties: {
            name: { type: "string", title: "Name", default: "Margherita" },
            size: { type: "string", oneOf: [{ const: "s", title: "Small" }, { const: "l", title: "Large" }] },
          },
          required: ["size"],
        },
      });
      return text(JSON.stringify(answer));
    }
    case "exit":
      setTimeout(() => process.exit(0), 10);
      return text("bye");
    default:
      return text(`ran ${request.params.name}`);
  }
});
// Tests read the pid to check that closing the registry stops the process.
if (process.env.PIDFILE) fs.writeFileSync(process.env.PIDFILE, String(process.pid));
console.error("test server starting");
await server.connect(new StdioServerTransport());
