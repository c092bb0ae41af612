import { stringify } from "yaml";

/** A call a chat turn made, as the draft takes it. */
export interface DraftCall {
  tool: string;
  input: unknown;
}

const MAX_NAME = 48;

/** A case name from the prompt: `list-files-in-lib`, within the suite schema's letters. */
export function caseNameFrom(prompt: string): string {
  const slug = prompt
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_NAME)
    .replace(/-+$/, "");
  return slug || "saved-case";
}

/**
 * The case "Save as eval case" starts from, as YAML: the turn's prompt, and the calls the model
 * made as the expected calls (their arguments as plain values: equal, objects partially). The
 * person edits it before it is saved; the server checks it against the suite schema.
 */
export function draftCase(prompt: string, calls: readonly DraftCall[]): string {
  const expected = calls.map((c) => {
    const args = c.input && typeof c.input === "object" && !Array.isArray(c.input) && Object.keys(c.input).length ? c.input : undefined;
    return args ? { tool: c.tool, args } : { tool: c.tool };
  });
  const expect = expected.length ? { calls: expected } : { noCalls: true };
  return stringify({ name: caseNameFrom(prompt), prompt: prompt || "…", expect }, { lineWidth: 0 });
}
