import type { JsonSchema } from "./schema";
import type { ToolContext, ToolDefinition } from "./types";

export type ToolOrigin = "builtin" | "plugin" | "mcp";

export interface RegisteredTool {
  name: string;
  sourcePackage: string;
  version: string;
  origin: ToolOrigin;
  /** The package's folder (built-ins: this repository). */
  packageDir: string;
  /** The manifest entry: file relative to packageDir, and the export that defines the tool. */
  entry: { file: string; exportName: string };
  description: string;
  summary: string;
  readonly: boolean;
  requiresConfirmation: boolean;
  inputSchema: JsonSchema;
  /** false when `tools.<name>.enabled` is false: listed, but never offered to a model. */
  enabled: boolean;
  /** The tool for one context: factories build per-chat state here. */
  resolve(ctx: ToolContext): ToolDefinition;
}

export type DiagnosticKind = "import-failed" | "not-a-tool" | "name-mismatch" | "bad-manifest" | "source-failed";

/** A plugin entry (or tool source) that was skipped, with what to do about it. */
export interface Diagnostic {
  kind: DiagnosticKind;
  package: string;
  version?: string;
  entry: string;
  message: string;
  stack?: string;
  hint: string;
  /** Captured output of a failed source (an MCP server's stderr). */
  stderr?: string;
}

export interface Registry {
  tools: RegisteredTool[];
  diagnostics: Diagnostic[];
  /** Packages named in `plugins.disabled` that were found and not imported. */
  disabledPackages: string[];
  get(name: string): RegisteredTool | undefined;
}
