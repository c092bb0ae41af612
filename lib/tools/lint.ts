import { summaryLine } from "./define";
import type { JsonSchema } from "./schema";

/** Longer first lines are cut in lists and crowd text-mode prompts. */
export const SUMMARY_MAX_CHARS = 120;

export type LintRule = "summary-missing" | "summary-too-long" | "arg-undescribed" | "required-unexplained" | "enum-undocumented" | "confirm-unsaid";

export interface LintFinding {
  rule: LintRule;
  /** Errors fail `toolroom tools --lint`; warnings are shown. */
  severity: "error" | "warning";
  message: string;
  /** The argument the finding is about. */
  arg?: string;
}

interface Lintable {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  requiresConfirmation: boolean;
  readonly: boolean;
}

type SchemaObject = Record<string, unknown>;

function asObject(value: unknown): SchemaObject | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as SchemaObject) : undefined;
}

/** Whether `word` stands in `text` as a word of its own (an argument name in prose, a value in a list). */
function mentions(text: string, word: string): boolean {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`, "i").test(text);
}

/** The enum of a property, looking into nullable/optional wrappers (anyOf/oneOf) and array items. */
function enumOf(schema: SchemaObject): unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum as unknown[];
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options))
      for (const option of options) {
        const found = enumOf(asObject(option) ?? {});
        if (found) return found;
      }
  }
  const items = asObject(schema.items);
  return items ? enumOf(items) : undefined;
}

// Verbs that say what a state-changing call does; a confirming tool's text should name its change.
const CHANGE_WORDS =
  /\b(writ|wrote|sav|delet|remov|creat|modif|chang|append|overwrit|replac|updat|run|execut|send|sent|mov|renam|install|post|commit|push|edit|set|add|drop|kill|stop|start)\w*/i;

/**
 * What a model needs from a tool's text that this one leaves out: a first line (the summary lists
 * and text-mode prompts show), each argument explained, enum values named, and for a tool that
 * asks first, what it changes. The same rules for every origin; `toolroom tools --lint` fails on errors.
 */
export function lintTool(tool: Lintable): LintFinding[] {
  const findings: LintFinding[] = [];
  const summary = summaryLine(tool.description);
  const firstLine = tool.description.split("\n", 1)[0]?.trim() ?? "";
  if (!firstLine) {
    findings.push({ rule: "summary-missing", severity: "error", message: "The description does not start with a one-line summary (its first line is empty)." });
  } else if (summary.length > SUMMARY_MAX_CHARS) {
    findings.push({
      rule: "summary-too-long",
      severity: "error",
      message: `The first line is ${summary.length} characters; keep it under ${SUMMARY_MAX_CHARS} (lists and text-mode prompts show it whole) and put details below it.`,
    });
  }

  const properties = asObject(tool.inputSchema.properties) ?? {};
  const required = new Set(Array.isArray(tool.inputSchema.required) ? tool.inputSchema.required.filter((r): r is string => typeof r === "string") : []);
  for (const [arg, raw] of Object.entries(properties)) {
    const schema = asObject(raw) ?? {};
    const own = typeof schema.description === "string" ? schema.description.trim() : "";
    const inText = mentions(tool.description, arg);
    if (!own && required.has(arg) && !inText) {
      findings.push({
        rule: "required-unexplained",
        severity: "error",
        arg,
        message: `Required argument "${arg}" is explained nowhere: give it a description, or say in the tool's text what it is.`,
      });
    } else if (!own) {
      findings.push({
        rule: "arg-undescribed",
        severity: "warning",
        arg,
        message: `Argument "${arg}" has no description in the schema${inText ? " (the tool's text names it; models reading the schema alone do not see that)" : ""}.`,
      });
    }
    const values = enumOf(schema);
    if (values) {
      const said = `${tool.description}\n${own}`;
      const unsaid = values.filter((v) => !mentions(said, String(v)));
      if (unsaid.length) {
        findings.push({
          rule: "enum-undocumented",
          severity: "warning",
          arg,
          message: `Argument "${arg}": the values ${unsaid.map((v) => JSON.stringify(v)).join(", ")} are not explained in its description or the tool's text.`,
        });
      }
    }
  }

  if (tool.requiresConfirmation && !CHANGE_WORDS.test(tool.description)) {
    findings.push({
      rule: "confirm-unsaid",
      severity: "error",
      message:
        "This tool asks for approval, but its description does not say what it changes (writes, deletes, runs, sends…): the person approving and the model both need to know.",
    });
  }
  return findings;
}
