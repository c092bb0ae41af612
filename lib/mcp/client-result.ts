import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

type ContentBlock = CallToolResult["content"][number];

/** A result as `callTool` returns it: the current shape, or the pre-2024-11 `toolResult` one. */
export type McpCallResult = CallToolResult | { toolResult: unknown; isError?: unknown };

function bytesOfBase64(data: string): string {
  const bytes = Math.floor((data.replace(/=+$/, "").length * 3) / 4);
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** Text parts as they are; binary parts summarized, since the model reads text only. */
function blockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `[${block.type}: ${block.mimeType}, ${bytesOfBase64(block.data)}]`;
    case "resource_link":
      return `[resource link: ${block.name} <${block.uri}>${block.mimeType ? ` (${block.mimeType})` : ""}]`;
    case "resource": {
      const r = block.resource;
      const head = `[resource: ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ""}`;
      return "text" in r ? `${head}]\n${r.text}` : `${head}, ${bytesOfBase64(r.blob)}]`;
    }
    default:
      return `[${(block as { type: string }).type} content]`;
  }
}

/**
 * The text the model sees for an MCP tool result: text parts joined by newlines, else the
 * structured content as JSON. An `isError` result becomes the `Error:` text every tool returns.
 */
export function callResultText(result: McpCallResult): string {
  let text: string;
  if ("toolResult" in result) text = typeof result.toolResult === "string" ? result.toolResult : JSON.stringify(result.toolResult, null, 2);
  else {
    text = (result.content ?? []).map(blockText).join("\n");
    if (!text && result.structuredContent) text = JSON.stringify(result.structuredContent, null, 2);
  }
  if (result.isError !== true) return text;
  if (text.startsWith("Error:")) return text;
  return `Error: ${text.trim() || "the tool reported an error without a message"}`;
}

/** Media kept from one result: enough for screenshots and short clips, bounded against a flood. */
const MEDIA_PART_LIMIT = 2 * 1024 * 1024;
const MEDIA_PARTS = 4;

/** A result's images and audio (base64), for the tool card and for models that read them. */
export function callResultMedia(result: McpCallResult): { type: "image" | "audio"; data: string; mimeType: string }[] {
  if ("toolResult" in result) return [];
  return (result.content ?? [])
    .flatMap((block) =>
      (block.type === "image" || block.type === "audio") && block.data.length <= MEDIA_PART_LIMIT
        ? [{ type: block.type, data: block.data, mimeType: block.mimeType }]
        : [],
    )
    .slice(0, MEDIA_PARTS);
}
