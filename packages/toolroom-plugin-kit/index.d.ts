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
  /** The sandbox the built-ins use, for tools that read files: read from disk only through here. */
  files: ToolFiles;
}

/**
 * Safe file access inside the source root, with the built-ins' rules: `..` and absolute paths that
 * leave the root, symlinks that lead out, URL-encoded and Windows spellings, NUL bytes, paths
 * excluded by an `.aiignore` at any depth (deeper files and `!` negations as in git), Toolroom's cache.
 */
export interface ToolFiles {
  /** The real absolute path of `path` (relative to the source root, or absolute inside it; it need not exist yet). Throws a FileAccessError. */
  resolve(path: string): string;
  /** The real absolute paths of the regular files among `paths`: missing, folders, outside and ignored ones dropped. */
  filter(paths: readonly string[]): string[];
  /** The text of a regular file inside the root (UTF-8). Throws a FileAccessError: missing, a folder, binary, over 20 MB, refused. */
  read(path: string): Promise<string>;
}

/**
 * What `ctx.files` throws. Its message is the refusal without "Error: ", so return
 * `` `Error: ${error.message}` `` — or let it fly: the result is the same.
 */
export declare class FileAccessError extends Error {
  readonly name: "FileAccessError";
  /** The path as the tool passed it. */
  readonly path: string;
  constructor(message: string, path: string);
}
/** true for a FileAccessError from `ctx.files` (the server's copy of the class is not this module's: use this, not `instanceof`). */
export declare function isFileAccessError(error: unknown): error is FileAccessError;

/** Human-in-the-loop: present when some calls need a person's approval. */
export interface ToolConfirm<I> {
  /** true = this call needs a human (or cannot run unsupervised). A throw counts as true. */
  evaluate(input: I, ctx: ToolContext): boolean | Promise<boolean>;
  /** What the model is told instead of a result when the call did not run. */
  notAdmitted(input: I, why: NotAdmittedWhy): ToolOutput;
  /**
   * When `evaluate` says yes, as the end of a sentence: "when the note is longer than 20 characters".
   * Shown wherever the confirmation badge is ("asks when the note is…"); without it the badge says "may ask".
   */
  when?: string;
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
/**
 * Marks an argument as a path inside the source root: sets JSON Schema `"format": "path"` on the
 * property, so approval rules match it after the sandbox's normalisation (`./a/../b/` is `b`).
 * Takes a zod schema (`pathArgument(z.string().describe("File to read"))`) or a JSON Schema property.
 */
export declare function pathArgument<S>(schema: S): S;
/** Wraps a plain JSON Schema as a tool input (for plugins that do not use zod). */
export declare function jsonSchema(schema: Record<string, unknown>): JsonSchemaWrapper;
