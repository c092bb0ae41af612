import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import type { LanguageModel } from "ai";

/** A JSON value: what a tool may return besides a string. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** What `execute` returns: a string, a JSON value, or the object form that reports changes. */
export type ToolOutput = string | JsonValue;
export interface ToolResultObject {
  output: ToolOutput;
  madeChanges?: boolean;
}

/** Why a confirming call did not run. The model is told, through `confirm.notAdmitted`. */
export type NotAdmittedReason = { kind: "denied"; reason?: string } | { kind: "timed-out" } | { kind: "unsupervised" };

/** One stage's admission rule for commands (AI-OPS' CommandAdmissionPolicy). */
export interface CommandPolicy {
  name: string;
  /** Returns a refusal reason, or null to admit. */
  check(command: string): string | null;
}

/**
 * Input schemas are recognised structurally: a plugin's `zod` is a different module instance from
 * ours, so `instanceof` would fail. A zod schema has `safeParse` and the Standard Schema marker;
 * a JSON Schema comes wrapped by `jsonSchema()` from this module or the AI SDK.
 */
export interface ZodLikeSchema {
  "~standard": { vendor: string; version: number; validate: (value: unknown) => unknown };
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } };
}
export interface JsonSchemaWrapper {
  jsonSchema: Record<string, unknown> | PromiseLike<Record<string, unknown>>;
}
export type InputSchema = ZodLikeSchema | JsonSchemaWrapper;

/** The embedding model named by settings `search.embeddings`, for tools that search by meaning. */
export interface EmbeddingsConfig {
  model: EmbeddingModelV4;
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
  signal: AbortSignal;
  sourceRoot: string;
  runsRoot: string;
}

export interface ToolConfirm<I> {
  /** true = this call needs a human (or cannot run unsupervised). A throw counts as true. */
  evaluate(input: I, ctx: ToolContext): boolean | Promise<boolean>;
  notAdmitted(input: I, why: NotAdmittedReason): ToolOutput;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- inputs are validated at runtime
export interface ToolDefinition<I = any> {
  name: string;
  description: string;
  input: InputSchema;
  readonly?: boolean;
  confirm?: ToolConfirm<I>;
  execute(input: I, ctx: ToolContext): Promise<ToolOutput | ToolResultObject> | ToolOutput | ToolResultObject;
  format?(output: ToolOutput): string;
}

export type ToolFactory = (ctx: ToolContext) => ToolDefinition;

/** What a plugin entry may export: a tool or a factory of one. */
export type ToolExport = ToolDefinition | ToolFactory;
