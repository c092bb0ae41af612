// The Toolroom tool contract. This file is its source of truth: the app's lib/tools/types.ts
// re-exports these types, so a plugin typed against the kit and the server that loads it agree.
import type { EmbeddingModel, LanguageModel } from "ai";

/** A JSON value: what a tool may return besides a string. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** What `execute` returns: a string, a JSON value, or the object form that reports changes. */
export type ToolOutput = string | JsonValue;
export interface ToolResultObject {
  output: ToolOutput;
  /** true when the call changed files: the driving model is recorded in the AI-assisted guard file. */
  madeChanges?: boolean;
}

/** One field of an elicitation form: MCP's primitive schemas (string, number, integer, boolean, enums). */
export type ElicitField = Record<string, unknown> & { type: "string" | "number" | "integer" | "boolean" | "array" };
/** The form a tool asks the person to fill: a flat object schema, as MCP elicitation allows. */
export interface ElicitSchema {
  type: "object";
  properties: Record<string, ElicitField>;
  required?: string[];
}
/**
 * The person's answer. `not-admitted`: nobody could be asked (the caller has no person, or its
 * MCP client cannot elicit) — treat it as a refusal, never as consent.
 */
export type ElicitResult =
  | { action: "accept"; content: Record<string, string | number | boolean | string[]> }
  | { action: "decline" | "cancel" }
  | { action: "not-admitted"; reason: string };

/** Why a confirming call did not run, as data. */
export type NotAdmittedReason =
  /** A person answered No (in the approval dialog, `toolroom call`, or an MCP client); `reason` is what they typed. */
  | { kind: "denied"; reason?: string }
  /** Nobody answered within `chat.approvalTimeoutSeconds`. */
  | { kind: "timed-out" }
  /** The call needs a person and none is there (an unsupervised chat, a CLI without a terminal, an MCP client without elicitation). */
  | { kind: "unsupervised" };

/**
 * What `confirm.notAdmitted` receives: the structured reason plus the same as a sentence.
 * `${why}` and `String(why)` print `why.message`, e.g. "A person denied the call: not now.".
 */
export type NotAdmittedWhy = NotAdmittedReason & {
  /** The reason as one human sentence, for the model and the person. */
  readonly message: string;
  toString(): string;
};

/** One stage's admission rule for commands (AI-OPS' CommandAdmissionPolicy). */
export interface CommandPolicy {
  name: string;
  /** Returns a refusal reason, or null to admit. */
  check(command: string): string | null;
}

/**
 * Input schemas are recognised structurally: a plugin's `zod` is a different module instance from
 * the server's, so `instanceof` would fail. A zod schema has `safeParse` and the Standard Schema
 * marker; a JSON Schema comes wrapped by `jsonSchema()`.
 */
export interface ZodLikeSchema {
  "~standard": { vendor: string; version: number; validate: (value: unknown) => unknown };
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } };
}
export interface JsonSchemaWrapper {
  jsonSchema: Record<string, unknown> | PromiseLike<Record<string, unknown>>;
}
export type InputSchema = ZodLikeSchema | JsonSchemaWrapper;

/** What every `evaluate` and `execute` call gets besides its input. */
/** The embedding model named by settings `search.embeddings`, for tools that search by meaning. */
export interface EmbeddingsConfig {
  model: EmbeddingModel;
  /** `<llms entry>/<model>`: the cache key, so switching models keeps both sets of vectors. */
  id: string;
  /** `search.maxEmbedChunks`: at most this many chunks are sent to the model per build. */
  maxChunks: number;
}

export interface ToolContext {
  chatId: string | null;
  /** `provider/model` of the model driving the call, when there is one. */
  modelId: string | null;
  isNewConversation: boolean;
  commandPolicies: readonly CommandPolicy[];
  /** The tool's own `tools.<name>` section of the settings. */
  settings: Record<string, unknown>;
  /** A model resolved from settings: the tool's own `llm` (or the one named) else the chat model. */
  llm(name?: string): LanguageModel;
  /** The configured embedding model; null when `search.embeddings` is unset. Throws when it names a model that cannot embed. */
  embeddings?(): EmbeddingsConfig | null;
  /** Aborted when the call is cancelled or times out. */
  signal: AbortSignal;
  sourceRoot: string;
  runsRoot: string;
  /** Asks the person for structured input; see ElicitResult for what comes back. */
  elicit?(message: string, schema: ElicitSchema): Promise<ElicitResult>;
}

/** Human-in-the-loop: present when some calls need a person's approval. */
export interface ToolConfirm<I> {
  /** true = this call needs a human (or cannot run unsupervised). A throw counts as true. */
  evaluate(input: I, ctx: ToolContext): boolean | Promise<boolean>;
  /** What the model is told instead of a result when the call did not run. */
  notAdmitted(input: I, why: NotAdmittedWhy): ToolOutput;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- inputs are validated at runtime
export interface ToolDefinition<I = any> {
  /** Unique; must equal the key of the tool's entry in package.json `toolroom.tools`. */
  name: string;
  /** First line: the summary shown in lists and text-mode prompts; the whole text is the tool's documentation. */
  description: string;
  input: InputSchema;
  /** Default true; false when the tool changes anything outside itself. */
  readonly?: boolean;
  confirm?: ToolConfirm<I>;
  /** Return errors as text starting `Error:`; a throw, a timeout or invalid input becomes one for you. */
  execute(input: I, ctx: ToolContext): Promise<ToolOutput | ToolResultObject> | ToolOutput | ToolResultObject;
  /** The text the model sees (default: the string, or pretty JSON). */
  format?(output: ToolOutput): string;
}

export type ToolFactory = (ctx: ToolContext) => ToolDefinition;

/** What a plugin entry may export: a tool or a factory of one. */
export type ToolExport = ToolDefinition | ToolFactory;

/** The parsed input type of a schema: zod's (Standard Schema) output type, else unknown. */
export type InputOf<S> = S extends { "~standard": { types?: infer T } } ? (NonNullable<T> extends { output: infer O } ? O : unknown) : unknown;

/** A tool, returned as given; `execute`, `confirm.evaluate` and `confirm.notAdmitted` get the schema's parsed input type. */
export declare function defineTool<S extends InputSchema, I = InputOf<S>>(tool: ToolDefinition<I> & { input: S }): ToolDefinition<I>;
/** A factory `(ctx) => tool`, for a tool that needs per-chat state. */
export declare function defineToolFactory(factory: ToolFactory): ToolFactory;
/** Wraps a plain JSON Schema as a tool input (for plugins that do not use zod). */
export declare function jsonSchema(schema: Record<string, unknown>): JsonSchemaWrapper;
