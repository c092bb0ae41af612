// Near-miss repair for JSON tool calls. The fixing is jsonrepair's; this file only decides which
// near-misses are accepted (the ones models commonly make) and names them for the call's card.
import { jsonrepair } from "jsonrepair";

export type Lenient = { ok: true; value: unknown; repaired?: string } | { ok: false; error: string };

const IDENT_START = /[A-Za-z_$]/;
const IDENT_PART = /[\w$]/;
const PYTHON_LITERALS = new Set(["True", "False", "None"]);
const JSON_LITERALS = new Set(["true", "false", "null"]);

interface Diagnosis {
  found: Set<string>;
  /** Something jsonrepair would guess at (a bare word as a value, a missing value): not accepted. */
  unsure?: string;
}

/** One pass over the text outside strings, naming each near-miss it sees. */
function diagnose(text: string): Diagnosis {
  const found = new Set<string>();
  let unsure: string | undefined;
  const trimmed = text.trim();
  if (trimmed.startsWith("```")) found.add("fenced JSON");
  let quote = "";
  let escape = false;
  // The last significant character outside strings, to spot "," before "}" and ":" with no value.
  let last = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? "";
    if (quote) {
      if (escape) escape = false;
      else if (c === "\\") escape = true;
      else if (c === quote) {
        quote = "";
        last = '"';
      }
      continue;
    }
    if (c === '"' || c === "'") {
      if (c === "'") found.add("single quotes");
      quote = c;
      continue;
    }
    if (c === "`") continue;
    if (c === " " || c === "\n" || c === "\t" || c === "\r") continue;
    if ((c === "}" || c === "]") && last === ",") found.add("trailing comma");
    if ((c === "}" || c === ",") && last === ":") unsure ??= "a value is missing after a colon";
    if (IDENT_START.test(c)) {
      let j = i + 1;
      while (j < text.length && IDENT_PART.test(text[j] ?? "")) j++;
      const word = text.slice(i, j);
      let k = j;
      while (text[k] === " " || text[k] === "\t") k++;
      if (text[k] === ":") found.add("unquoted keys");
      else if (PYTHON_LITERALS.has(word)) found.add("Python literals");
      else if (!JSON_LITERALS.has(word) && !(word === "json" && last === "")) unsure ??= `the bare word ${word} is not a JSON value (strings need quotes)`;
      i = j - 1;
      last = "w";
      continue;
    }
    last = c;
  }
  if (quote) unsure ??= "a string is not closed";
  return unsure === undefined ? { found } : { found, unsure };
}

/**
 * Parses JSON, accepting the near-misses models commonly make — a Markdown fence around it,
 * trailing commas, single quotes, unquoted keys, Python's True/False/None — and naming them.
 * Anything else stays an error, so a guess never runs a tool.
 */
export function parseLenientJson(text: string): Lenient {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    const { found, unsure } = diagnose(text);
    if (unsure !== undefined || found.size === 0) return { ok: false, error: unsure ?? why };
    try {
      return { ok: true, value: JSON.parse(jsonrepair(text)), repaired: [...found].join(", ") };
    } catch {
      return { ok: false, error: why };
    }
  }
}

/**
 * The tool a name means: itself when known, else the one tool whose name matches ignoring case
 * (a "List_Files" that can mean only list_files). Null when unknown or ambiguous.
 */
export function matchToolName(name: string, tools: ReadonlySet<string> | null): { name: string; repaired?: string } | null {
  if (tools === null || tools.has(name)) return { name };
  const lower = name.toLowerCase();
  let match: string | undefined;
  for (const tool of tools) {
    if (tool.toLowerCase() !== lower) continue;
    if (match !== undefined) return null;
    match = tool;
  }
  return match === undefined ? null : { name: match, repaired: "tool name case" };
}
