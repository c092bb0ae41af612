import { createTextCallParser } from "@/lib/chat/text-protocol/parser";
import type { ParseEvent, TextProtocol } from "@/lib/chat/text-protocol/types";

export const TOOLS = ["list_files", "read_file", "grep_code"];

/** Runs the parser over the chunks and merges adjacent text events (their split is arbitrary). */
export function parseChunks(protocol: TextProtocol, chunks: string[], tools: string[] | null = TOOLS) {
  const parser = createTextCallParser(protocol, tools);
  const raw: ParseEvent[] = [];
  for (const chunk of chunks) raw.push(...parser.push(chunk));
  raw.push(...parser.end());
  const events: ParseEvent[] = [];
  for (const event of raw) {
    const last = events.at(-1);
    if (event.type === "text" && last?.type === "text") last.text += event.text;
    else events.push({ ...event });
  }
  return { events, raw, droppedChars: parser.droppedChars };
}

/** Deterministic PRNG (mulberry32) so random chunkings are reproducible. */
export { mulberry32 as rng } from "@/lib/testing/random";

export function randomChunks(text: string, random: () => number, min = 1, max = 64): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length;) {
    const size = min + Math.floor(random() * (max - min + 1));
    out.push(text.slice(i, i + size));
    i += size;
  }
  return out;
}
