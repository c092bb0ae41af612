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
  /**
   * Rich content (images, audio, embedded resources, resource links) for callers that show it:
   * MCP clients receive these parts as the call's content. The model in chat reads `output`.
   */
  content?: ContentPart[];
}

/** Base64 text, as MCP carries binary data. */
export type Base64 = string;

/** A resource's body: text, or binary data as base64. */
export type ResourceContents = { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: Base64 };

/** One part of a tool result or a prompt message (MCP's content block types). */
export type ContentPart =
  | { type: "text"; text: string }
  | { type: "image"; data: Base64; mimeType: string }
  | { type: "audio"; data: Base64; mimeType: string }
  | { type: "resource"; resource: ResourceContents }
  | { type: "resource_link"; uri: string; name: string; title?: string; description?: string; mimeType?: string };

/** MCP's log levels, least severe first. */
export type LogLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

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
  /** The sandbox the built-ins use, for tools that read files: read from disk only through here. */
  files: ToolFiles;
  /**
   * Reports how far the call is (`total` when known). Present where the caller shows progress
   * (an MCP client that asked for it); call it as `ctx.progress?.(n, total)`.
   */
  progress?(progress: number, total?: number, message?: string): void;
  /** Sends a log message to the caller (MCP `notifications/message`, filtered by the client's level). */
  log?(level: LogLevel, data: JsonValue): void;
  /** Asks the person for structured input; see ElicitResult for what comes back. */
  elicit?(message: string, schema: ElicitSchema): Promise<ElicitResult>;
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

/** What a resource's `read` may return: text, bytes, or either with its own MIME type. */
export type ResourceBody = string | Uint8Array | { text: string; mimeType?: string } | { blob: Base64 | Uint8Array; mimeType?: string };

/** What resource reads and prompt gets receive: the roots and an abort signal. */
export interface ContributionContext {
  signal: AbortSignal;
  sourceRoot: string;
  runsRoot: string;
}

/** A resource at one fixed URI. Declared in package.json `toolroom.resources` under its `name`. */
export interface ResourceDefinition {
  uri: string;
  /** Unique among resources; must equal the manifest key. */
  name: string;
  title?: string;
  description: string;
  mimeType?: string;
  read(ctx: ContributionContext): ResourceBody | Promise<ResourceBody>;
}

/** Suggests values for one argument from what was typed so far (and the arguments already given). */
export type Completer = (value: string, context: { arguments: Record<string, string> }) => string[] | Promise<string[]>;

/** A family of resources under an RFC 6570 URI template, e.g. `myplugin://runs/{id}/log`. Also in `toolroom.resources`. */
export interface ResourceTemplateDefinition {
  uriTemplate: string;
  name: string;
  title?: string;
  description: string;
  mimeType?: string;
  /** Completions per template variable. */
  complete?: Record<string, Completer>;
  read(uri: string, variables: Record<string, string>, ctx: ContributionContext): ResourceBody | Promise<ResourceBody>;
}

export interface PromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}

export interface PromptMessage {
  role: "user" | "assistant";
  content: ContentPart;
}

/** A prompt template. Declared in package.json `toolroom.prompts` under its `name`. */
export interface PromptDefinition {
  name: string;
  title?: string;
  description: string;
  arguments?: PromptArgument[];
  /** Completions per argument name. */
  complete?: Record<string, Completer>;
  get(
    args: Record<string, string>,
    ctx: ContributionContext,
  ): PromptMessage[] | { description?: string; messages: PromptMessage[] } | Promise<PromptMessage[] | { description?: string; messages: PromptMessage[] }>;
}

/** A resource, returned as given. */
export declare function defineResource(resource: ResourceDefinition): ResourceDefinition;
/** A resource template, returned as given. */
export declare function defineResourceTemplate(template: ResourceTemplateDefinition): ResourceTemplateDefinition;
/** A prompt, returned as given. */
export declare function definePrompt(prompt: PromptDefinition): PromptDefinition;
/** Rich content: a base64 part from bytes (`image` or `audio`). */
export declare function mediaContent(type: "image" | "audio", bytes: Uint8Array | Base64, mimeType: string): ContentPart;
