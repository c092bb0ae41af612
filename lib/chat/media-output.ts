import type { Tool } from "ai";
import type { MediaPart } from "./metadata";

type ToolResultOutput = Awaited<ReturnType<NonNullable<Tool["toModelOutput"]>>>;

/**
 * Providers whose tool results can hold images and audio as content parts. The others (chat
 * completions APIs) would receive the parts as JSON text, megabytes of base64: they get the text,
 * which describes each part.
 */
export function acceptsMediaResults(provider: string): boolean {
  return /^anthropic\b|^openai\.responses$/.test(provider);
}

/** A tool result for the model: its text, then its media as file parts. */
export function mediaToolOutput(text: string, media: MediaPart[] | undefined): ToolResultOutput {
  if (!media?.length) return { type: "text", value: text };
  return {
    type: "content",
    value: [{ type: "text", text }, ...media.map((m) => ({ type: "file" as const, mediaType: m.mimeType, data: { type: "data" as const, data: m.data } }))],
  };
}
