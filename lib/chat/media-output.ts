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

/**
 * A tool result for the model: its text (which describes every part), then its images as file
 * parts. Audio stays described only: Anthropic's tool_result has no audio block (the provider drops
 * the part with a warning), and OpenAI's Responses API would get it as an `input_file` named
 * "data", which its function_call_output takes for documents, not sound.
 */
export function mediaToolOutput(text: string, media: MediaPart[] | undefined): ToolResultOutput {
  const images = (media ?? []).filter((m) => m.type === "image");
  if (!images.length) return { type: "text", value: text };
  return {
    type: "content",
    value: [{ type: "text", text }, ...images.map((m) => ({ type: "file" as const, mediaType: m.mimeType, data: { type: "data" as const, data: m.data } }))],
  };
}
