import { z } from "zod";
import { TEXT_PROTOCOLS } from "@/lib/chat/text-protocol/types";
import { REGEX_FLAGS } from "./suite-regex";

/**
 * The eval suite file (`*.eval.yaml`). The published JSON Schema (examples/evals/suite.schema.json)
 * is generated from this schema, so editors complete exactly what the runner accepts.
 */

const regexFlags = z
  .string()
  .regex(REGEX_FLAGS, "flags are i, m and s")
  .optional()
  .describe("Regex flags: i (ignore case), m (^ and $ at line ends), s (. matches newlines)");

/**
 * One argument's expectation: a plain value (equal; objects match partially), a regex (RE2), a JSON
 * Schema, an exact value, one of several values, an optional argument, or BFCL's rule for a
 * parameter (lib/evals/bfcl-checker.ts). The last, catch-all form
 * keeps plain values open; lib/evals/matchers.ts reads the forms the same way.
 */
export const argMatcherSchema = z.union([
  z.strictObject({ regex: z.string().describe("The argument, as text, matches this regular expression (RE2 syntax, linear time)"), flags: regexFlags }),
  z.strictObject({ schema: z.record(z.string(), z.unknown()).describe("The argument validates against this JSON Schema (no pattern keywords)") }),
  z.strictObject({ exact: z.unknown().describe("The argument equals this value exactly (objects and arrays whole)") }),
  z.strictObject({
    anyOf: z.array(z.unknown()).min(1).describe("The argument equals one of these values (objects and arrays compared whole)"),
  }),
  z.strictObject({ optional: z.unknown().describe("The argument is absent, or matches this (any of these forms)") }),
  z.strictObject({
    bfcl: z
      .array(z.unknown())
      .min(1)
      .describe(
        'BFCL\'s checker for one parameter: one of these accepted values, strings compared ignoring case, spaces and ,./-_*^, dicts as { key: [values] } with no other key; "" = may be absent',
      ),
  }),
  z.unknown().describe("The argument equals this value; an object matches when its listed keys match"),
]);

export const expectedCallSchema = z.strictObject({
  tool: z
    .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
    .describe("The tool called, or a list of tools any one of which passes (search_code or search_repo_map)"),
  args: z.record(z.string(), argMatcherSchema).optional().describe("Arguments checked one by one; arguments not listed are not checked"),
  argsMatch: z.enum(["partial", "exact"]).default("partial").describe("partial (default): listed arguments must match; exact: no other arguments may be given"),
  outcome: z
    .enum(["executed", "invalid", "not_admitted", "denied", "mocked"])
    .optional()
    .describe(
      "What must have become of the call: executed, invalid (its input failed the tool's schema, so the tool never ran), not_admitted (never ran, unsupervised), denied, or mocked (answered by the case's mocks)",
    ),
});

const answerSchema = z
  .strictObject({
    contains: z
      .union([z.string(), z.array(z.string())])
      .optional()
      .describe("The final answer contains this text (each, if a list)"),
    regex: z.string().optional().describe("The final answer matches this regular expression (RE2 syntax, linear time)"),
    flags: regexFlags,
    judge: z.string().min(1).optional().describe("Criteria a judge model grades the final answer by (asked only when every other check passed); needs model"),
    model: z.string().min(1).optional().describe("The judge: a model named in settings llms"),
  })
  .superRefine((a, ctx) => {
    if (a.judge !== undefined && a.model === undefined)
      ctx.addIssue({ code: "custom", message: "a judge needs a model: name one from settings llms", path: ["model"] });
    if (a.model !== undefined && a.judge === undefined)
      ctx.addIssue({ code: "custom", message: "model names the judge: give the criteria in judge", path: ["judge"] });
  });

export const expectSchema = z
  .strictObject({
    calls: z.array(expectedCallSchema).default([]).describe("Calls the model must propose (executed or not)"),
    ordered: z.boolean().default(false).describe("The calls must be proposed in the order listed (else any pairing of expected and proposed calls passes)"),
    only: z.boolean().default(false).describe("No call beyond the expected ones may be proposed"),
    noCalls: z.boolean().default(false).describe("No tool may be called at all"),
    notCalled: z.array(z.string().min(1)).default([]).describe("Tools the model must not propose"),
    answer: answerSchema.optional(),
    maxSteps: z.number().int().positive().optional().describe("At most this many model steps"),
  })
  .refine((e) => !(e.noCalls && e.calls.length), { message: "noCalls with expected calls can never pass", path: ["noCalls"] });

/** A tool declared by the suite: a schema the model is offered and a canned answer; it runs no code. */
export const suiteToolSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, "letters, digits, '.', '_' and '-', at most 64"),
  description: z.string().min(1).describe("What the model reads about the tool"),
  inputSchema: z.record(z.string(), z.unknown()).default({ type: "object", properties: {} }).describe("The tool's input as JSON Schema (an object schema)"),
  output: z
    .union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())])
    .optional()
    .describe(
      'What a call returns: text, where {{arg}} is the call\'s argument (dotted paths, {{$input}} = all of it as JSON), or a JSON value (default "ok")',
    ),
});

export const confirmPolicySchema = z
  .enum(["notAdmitted", "approve", "deny"])
  .describe("How a call of a confirming tool is answered: notAdmitted (default: it never runs), approve, or deny");

const messageSchema = z.strictObject({ role: z.enum(["user", "assistant"]), content: z.string().min(1) });

export const caseSchema = z
  .strictObject({
    name: z.string().regex(/^[\w.-]+$/, "letters, digits, '.', '_' and '-' only"),
    prompt: z.string().min(1).optional().describe("The user's message"),
    messages: z.array(messageSchema).min(1).optional().describe("A conversation to continue; the last message is the user's"),
    confirm: confirmPolicySchema.default("notAdmitted"),
    mocks: z
      .record(z.string(), z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]))
      .optional()
      .describe("Tool name → the output it returns instead of running"),
    tools: z
      .array(z.union([z.string().min(1), suiteToolSchema]))
      .optional()
      .describe("The only tools this case offers: names (of the suite's tools or registered ones) or tool definitions of its own"),
    expect: expectSchema.default({ calls: [], ordered: false, only: false, noCalls: false, notCalled: [] }),
  })
  .superRefine((c, ctx) => {
    if ((c.prompt === undefined) === (c.messages === undefined)) ctx.addIssue({ code: "custom", message: "give either prompt or messages", path: ["prompt"] });
    if (c.messages && c.messages.at(-1)?.role !== "user") ctx.addIssue({ code: "custom", message: "the last message must be the user's", path: ["messages"] });
  });

export const modeSchema = z.enum(["native", "text"]);

export const matrixSchema = z.strictObject({
  models: z.array(z.string().min(1)).min(1).default(["offline"]).describe("Models from settings llms"),
  modes: z.array(modeSchema).min(1).default(["native"]).describe("Tool modes"),
  protocols: z.array(z.enum(TEXT_PROTOCOLS)).min(1).optional().describe("Text protocols for text mode (default: settings chat.textProtocol)"),
  trials: z.number().int().positive().max(1000).default(1).describe("Trials per case and cell"),
});

export const suiteSchema = z.strictObject({
  $schema: z.string().optional(),
  name: z.string().regex(/^[\w.-]+$/, "letters, digits, '.', '_' and '-' only"),
  description: z.string().optional(),
  matrix: matrixSchema.default({ models: ["offline"], modes: ["native"], trials: 1 }),
  settings: z
    .strictObject({
      tools: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
      plugins: z.strictObject({ paths: z.array(z.string()) }).optional(),
    })
    .optional()
    .describe("Settings for this suite's runs over the usual ones: tool sections and plugin paths (relative to the suite file)"),
  tools: z
    .array(suiteToolSchema)
    .optional()
    .describe("Tools declared by the suite, offered in its trials beside the registered ones (a case's tools narrow them)"),
  cases: z.array(caseSchema).min(1),
});

export type Suite = z.infer<typeof suiteSchema>;
export type EvalCase = z.infer<typeof caseSchema>;
export type ExpectedCall = z.infer<typeof expectedCallSchema>;
export type ConfirmPolicy = z.infer<typeof confirmPolicySchema>;
export type SuiteTool = z.infer<typeof suiteToolSchema>;
export type ToolMode = z.infer<typeof modeSchema>;

/** The JSON Schema editors read: the input side (defaults optional). */
export function suiteJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(suiteSchema, { io: "input", unrepresentable: "any" }),
    title: "Toolroom eval suite",
  };
}
