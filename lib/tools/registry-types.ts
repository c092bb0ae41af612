import type { SourceLocation } from "./import-error";
import type { JsonSchema } from "./schema";
import type { PromptDefinition, ResourceDefinition, ResourceTemplateDefinition, ToolContext, ToolDefinition } from "./types";

/** Where a contribution came from, as `/tools` and MCP `_meta` name it. */
interface Contributed {
  sourcePackage: string;
  version: string;
}
export type RegisteredResource = Contributed &
  ({ kind: "resource"; definition: ResourceDefinition } | { kind: "template"; definition: ResourceTemplateDefinition });
export type RegisteredPrompt = Contributed & { definition: PromptDefinition };

export type ToolOrigin = "builtin" | "plugin" | "mcp";

export interface RegisteredTool {
  name: string;
  sourcePackage: string;
  version: string;
  origin: ToolOrigin;
  /** The package's folder (built-ins: this repository; MCP: the folder a stdio server runs in, or its URL). */
  packageDir: string;
  /**
   * The manifest entry: file relative to packageDir, and the export that defines the tool. MCP
   * tools have no source here: `file` is the server's command line or URL, `exportName` the
   * server's own (unprefixed) name for the tool.
   */
  entry: { file: string; exportName: string };
  description: string;
  summary: string;
  readonly: boolean;
  requiresConfirmation: boolean;
  /** `confirm.when`: when the tool asks, as the end of a sentence; absent: it may ask. */
  confirmWhen?: string;
  inputSchema: JsonSchema;
  /** The `$schema` the input schema declared (zod's converter: draft 2020-12); served over MCP with it. */
  schemaDialect?: string;
  /** false when `tools.<name>.enabled` is false: listed, but never offered to a model. */
  enabled: boolean;
  /**
   * Set when the tool's module failed to import again after it had loaded: the last good version is
   * still served. `since` is when it went stale (ISO), `reason` the failure.
   */
  stale?: { since: string; reason: string };
  /** Plugins: the entry module's modification time when it was imported; a reload that sees another counts the tool as changed. */
  moduleStamp?: number;
  /** The tool for one context: factories build per-chat state here. */
  resolve(ctx: ToolContext): ToolDefinition;
}

export type DiagnosticKind = "import-failed" | "import-timed-out" | "not-a-tool" | "name-mismatch" | "bad-manifest" | "source-failed";

/** A plugin entry (or tool source) that was skipped, with what to do about it. */
export interface Diagnostic {
  kind: DiagnosticKind;
  package: string;
  version?: string;
  entry: string;
  message: string;
  stack?: string;
  /** Where a plugin module failed to import, with the code around it. */
  location?: SourceLocation;
  hint: string;
  /** Captured output of a failed source (an MCP server's stderr). */
  stderr?: string;
  /** The entry had loaded before: its last good tool is still served (marked stale). */
  keptLastGood?: boolean;
}

/** A tool source that is not a package (an MCP server), as `/tools` lists it. */
export interface SourceStatus {
  /** `mcp:<name>`: the source package of its tools and diagnostics. */
  package: string;
  transport: "stdio" | "http";
  /** The command line, or the URL. */
  target: string;
  /** Prepended to its tool names ("" for none). */
  prefix: string;
  state: "connected" | "failed";
  toolCount: number;
  /** The server's own `serverInfo` (connected servers only). */
  server?: { name: string; version: string; title?: string };
  /** Set when a reload connected it again instead of keeping its connection: when (ISO), and why. */
  reconnected?: { at: string; reason: string };
}

export interface Registry {
  tools: RegisteredTool[];
  diagnostics: Diagnostic[];
  /** Packages named in `plugins.disabled` that were found and not imported. */
  disabledPackages: string[];
  /** MCP servers, connected or not (absent: none configured). */
  sources?: SourceStatus[];
  /** Plugin resources and resource templates (`toolroom.resources`); served over MCP. */
  resources?: RegisteredResource[];
  /** Plugin prompts (`toolroom.prompts`); served over MCP. */
  prompts?: RegisteredPrompt[];
  get(name: string): RegisteredTool | undefined;
  /** Stops what the sources started (MCP server processes): a CLI calls it before it exits. */
  close?(): Promise<void>;
}
