import { z } from "zod";
import { REGEX_FLAGS } from "./suite-regex";

/**
 * A collection of saved calls (`*.calls.yaml`): calls of registered tools with the input to send
 * and what the result must be, run in order as a regression suite. The published JSON Schema
 * (examples/collections/collection.schema.json) is generated from this schema, as the suite's is.
 */

/** At most this many calls in one collection: a file from the source root may have been written by anyone. */
export const MAX_CALLS = 500;

/** A var's name: `{{name}}` in a string of a call's input or expect. `calls` is the earlier calls' outputs. */
export const VAR_NAME = /^(?!calls$)[A-Za-z_][\w-]*$/;
/** A call's name: `{{calls.NAME.output}}` refers to it, so no dots. */
export const CALL_NAME = /^[\w-]+$/;

export const callExpectSchema = z.strictObject({
  contains: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe("The result's text contains this (each, if a list)"),
  equals: z.unknown().optional().describe("A string: the result's text equals it (ends trimmed). Any other value: the JSON output equals it"),
  matches: z.string().optional().describe("The result's text matches this regular expression (RE2 syntax, linear time)"),
  flags: z.string().regex(REGEX_FLAGS, "flags are i, m and s").optional().describe("Flags of matches: i, m, s"),
  json: z
    .unknown()
    .optional()
    .describe(
      "The output, as JSON, matches this: objects by the keys listed, other values equal, or any argument matcher of eval suites ({ regex }, { anyOf }, …)",
    ),
  error: z.boolean().optional().describe("true: the result is an error (its text starts with Error:). Default false: an error fails the call"),
  notAdmitted: z
    .boolean()
    .optional()
    .describe("true: the call must not be admitted (a confirming call nobody approved). Default false: a call not admitted fails"),
  maxMs: z.number().int().positive().optional().describe("The call takes at most this many milliseconds"),
});

export const savedCallSchema = z.strictObject({
  name: z.string().regex(CALL_NAME, "letters, digits, '_' and '-' only"),
  description: z.string().optional(),
  tool: z.string().min(1).describe("A registered tool: a built-in, a plugin's, or an MCP server's (as toolroom tools lists it)"),
  input: z.record(z.string(), z.unknown()).default({}).describe("The tool's input; {{var}} and {{calls.NAME.output}} are substituted in its strings"),
  expect: callExpectSchema.default({}).describe("What the result must be; with none, the call passes when it ran and is no error"),
});

export const collectionSchema = z.strictObject({
  $schema: z.string().optional(),
  name: z.string().regex(/^[\w.-]+$/, "letters, digits, '.', '_' and '-' only"),
  description: z.string().optional(),
  vars: z
    .record(
      z.string().regex(VAR_NAME, "a var's name is letters, digits, '_' and '-', starting with a letter or '_' (not calls)"),
      z.union([z.string(), z.number(), z.boolean()]),
    )
    .default({})
    .describe("Defaults of {{var}}; --var name=value (or the page) overrides them"),
  calls: z.array(savedCallSchema).min(1).max(MAX_CALLS).describe("Run in order; a later call may use an earlier one's output"),
});

export type Collection = z.infer<typeof collectionSchema>;
export type SavedCall = z.infer<typeof savedCallSchema>;
export type CallExpect = z.infer<typeof callExpectSchema>;
export type VarValue = Collection["vars"][string];

/** The JSON Schema editors read: the input side (defaults optional). */
export function collectionJsonSchema(): Record<string, unknown> {
  return { ...z.toJSONSchema(collectionSchema, { io: "input", unrepresentable: "any" }), title: "Toolroom collection of saved calls" };
}
