import { stringify } from "yaml";
import type { CallExpect } from "./collection-schema";

/** A try-it result as the draft reads it. */
export type DraftResult =
  | { status: "done"; text: string; output: unknown; isError: boolean; durationMs: number }
  | { status: "not-admitted"; text: string }
  | { status: "error"; error: string };

/** Texts up to this long are expected whole (`equals`); longer ones by their first line (`contains`). */
const WHOLE_TEXT = 200;

const firstLine = (text: string) => text.split("\n").find((l) => l.trim()) ?? text;

/**
 * The expectation drafted from what try-it showed: a JSON object output as a `json` match, a short
 * text whole, a long one by its first line; an Error: result as `error: true`, a refusal as
 * `notAdmitted: true`. The person edits it before it is saved.
 */
export function draftExpect(result: DraftResult): CallExpect {
  if (result.status === "not-admitted") return { notAdmitted: true };
  if (result.status === "error") return {};
  if (result.isError) return { error: true, contains: firstLine(result.text).slice(0, WHOLE_TEXT) };
  const output = typeof result.output === "string" ? tryJson(result.output) : result.output;
  if (output && typeof output === "object" && !Array.isArray(output)) return { json: output };
  return result.text.length <= WHOLE_TEXT ? { equals: result.text.trim() } : { contains: firstLine(result.text).slice(0, WHOLE_TEXT) };
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A call name from the tool's: `sample_word_count` → `sample-word-count`, within the schema's letters. */
export function callNameFrom(tool: string): string {
  return tool.replace(/[^\w-]+/g, "-").replace(/^-+|-+$/g, "") || "call";
}

/** The call "Save to collection" starts from, as YAML: the current input and the drafted expectation. */
export function draftCall(tool: string, input: unknown, result: DraftResult | null): string {
  const expect = result ? draftExpect(result) : {};
  return stringify({ name: callNameFrom(tool), tool, input: input ?? {}, ...(Object.keys(expect).length ? { expect } : {}) }, { lineWidth: 0 });
}
