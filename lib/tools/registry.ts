import { summaryLine } from "./define";
import { loadContributions } from "./contributions";
import { RegistryCollisionError, RegistryError } from "./errors";
import { importEntry } from "./entry-module";
import { diagnosticReport } from "./registry-json";
import { findPluginPackages, type PluginPackage } from "./manifest";
import type { Diagnostic, Registry, RegisteredTool, SourceStatus, ToolOrigin } from "./registry-types";
import { describeInputSchema } from "./schema";
import type { ToolContext, ToolDefinition, ToolExport } from "./types";
import { whyNotATool } from "./validate-tool";

export interface BuiltinEntry {
  tool: ToolExport;
  /** Source file, relative to the built-in package folder (shown on the tool's page). */
  file: string;
  exportName: string;
}

/** Tools from elsewhere (MCP servers): already resolved, with their own diagnostics. */
export interface ToolSource {
  tools: Omit<RegisteredTool, "enabled">[];
  diagnostics: Diagnostic[];
  /** How `/tools` shows the source itself. */
  status?: SourceStatus;
  /** Stops what the source runs; the registry's `close` calls it. */
  close?(): Promise<void>;
}

export interface BuildRegistryOptions {
  builtins: BuiltinEntry[];
  builtinPackage: { name: string; version: string; dir: string };
  nodeModules: string[];
  pluginPaths?: string[];
  disabledPackages?: string[];
  /** `tools.<name>.enabled`; a tool is enabled unless this says false. */
  isEnabled?: (name: string) => boolean;
  /** The context factories get when the registry reads their metadata. */
  metadataContext: ToolContext;
  /** A promise may be given, so servers start while plugins are imported. */
  sources?: ToolSource[] | Promise<ToolSource[]>;
  log?: (message: string) => void;
  /** A plugin import that has not settled by then is skipped (settings `plugins.importTimeoutSeconds`). */
  importTimeoutMs?: number;
  /** The registry in use (a live reload): an entry that loaded there and fails now keeps its last good tool. */
  previous?: Registry;
  now?: () => Date;
}

export const DEFAULT_IMPORT_TIMEOUT_MS = 10_000;

/** Failures of an entry's module (not of its manifest): a fix in the module brings the tool back. */
const MODULE_FAILURES = new Set<Diagnostic["kind"]>(["import-failed", "import-timed-out", "not-a-tool"]);

type Candidate = Omit<RegisteredTool, "enabled">;

export async function buildRegistry(options: BuildRegistryOptions): Promise<Registry> {
  const log = options.log ?? ((message: string) => console.warn(message));
  const diagnostics: Diagnostic[] = [];
  const candidates: Candidate[] = [];

  for (const entry of options.builtins) {
    const { name, version, dir } = options.builtinPackage;
    const tool = resolveExport(entry.tool, options.metadataContext);
    const problem = tool instanceof Error ? tool.message : whyNotATool(tool);
    if (problem) throw new RegistryError(`built-in tool ${entry.exportName} (${entry.file}) is broken: ${problem}`);
    candidates.push(await describe(tool as ToolDefinition, entry.tool, "builtin", { name, version, dir }, { file: entry.file, exportName: entry.exportName }));
  }

  const disabled = new Set(options.disabledPackages ?? []);
  const packages = await findPluginPackages(options.nodeModules, options.pluginPaths ?? []);
  const disabledPackages = packages.filter((p) => disabled.has(p.name)).map((p) => p.name);
  const enabledPackages = packages.filter((p) => !disabled.has(p.name));
  const timeoutMs = options.importTimeoutMs ?? DEFAULT_IMPORT_TIMEOUT_MS;
  // Tools, resources and prompts are imported at once: start-up waits one bound at most, not one per kind.
  const [loaded, contributions] = await Promise.all([
    Promise.all(
      enabledPackages.flatMap((pkg) => Object.entries(pkg.tools).map(([toolName, spec]) => loadEntry(pkg, toolName, spec, options.metadataContext, timeoutMs))),
    ),
    loadContributions(enabledPackages, timeoutMs),
  ]);
  const now = options.now ?? (() => new Date());
  for (const result of loaded) {
    if ("diagnostic" in result) {
      const lastGood = MODULE_FAILURES.has(result.diagnostic.kind) ? options.previous?.get(result.diagnostic.entry) : undefined;
      if (lastGood && lastGood.origin === "plugin" && lastGood.sourcePackage === result.diagnostic.package) {
        const { enabled: _enabled, ...kept } = lastGood;
        candidates.push({ ...kept, stale: { since: lastGood.stale?.since ?? now().toISOString(), reason: result.diagnostic.message } });
        result.diagnostic.keptLastGood = true;
      }
      diagnostics.push(result.diagnostic);
      log(`toolroom: ${diagnosticReport(result.diagnostic)}${result.diagnostic.stack ? `\n${result.diagnostic.stack}` : ""}`);
    } else candidates.push(result.candidate);
  }

  for (const diagnostic of contributions.diagnostics) {
    diagnostics.push(diagnostic);
    log(`toolroom: ${diagnosticReport(diagnostic)}${diagnostic.stack ? `\n${diagnostic.stack}` : ""}`);
  }

  const sources = (await options.sources) ?? [];
  for (const source of sources) {
    candidates.push(...source.tools);
    diagnostics.push(...source.diagnostics);
  }

  const byName = new Map<string, RegisteredTool>();
  for (const candidate of candidates) {
    const existing = byName.get(candidate.name);
    if (existing) throw collision(candidate, existing, options.builtinPackage.name);
    byName.set(candidate.name, { ...candidate, enabled: options.isEnabled?.(candidate.name) ?? true });
  }
  const tools = [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  return {
    tools,
    diagnostics,
    disabledPackages,
    sources: sources.flatMap((s) => (s.status ? [s.status] : [])),
    resources: contributions.resources,
    prompts: contributions.prompts,
    get: (name) => byName.get(name),
    close: () => closeSources(sources),
  };
}

export async function closeSources(sources: ToolSource[]): Promise<void> {
  await Promise.all(sources.map(async (s) => s.close?.()));
}

/** The collision rule holds for MCP servers too; their way out is a prefix, not `plugins.disabled`. */
function collision(candidate: Candidate, existing: Candidate, builtinPackage: string): RegistryCollisionError {
  const error = new RegistryCollisionError(candidate.name, [existing.sourcePackage, candidate.sourcePackage], builtinPackage);
  const server = [candidate, existing].find((c) => c.origin === "mcp");
  if (server) {
    const key = server.sourcePackage.slice("mcp:".length);
    error.message = `tool "${candidate.name}" is registered by two sources: "${existing.sourcePackage}" and "${candidate.sourcePackage}". Namespace the server's tools with mcpServers.${key}.prefix (e.g. "${key}_").`;
  }
  return error;
}

/** A tool (or a factory's tool), an Error from a throwing factory, or whatever else the export was. */
function resolveExport(value: unknown, ctx: ToolContext): unknown {
  if (typeof value !== "function") return value;
  try {
    return (value as (ctx: ToolContext) => unknown)(ctx);
  } catch (error) {
    return new Error(`its factory threw: ${(error as Error).message}`);
  }
}

async function describe(
  tool: ToolDefinition,
  exported: unknown,
  origin: ToolOrigin,
  pkg: { name: string; version: string; dir: string },
  entry: { file: string; exportName: string },
): Promise<Candidate> {
  const { inputSchema, dialect } = await describeInputSchema(tool.input);
  return {
    name: tool.name,
    sourcePackage: pkg.name,
    version: pkg.version,
    origin,
    packageDir: pkg.dir,
    entry,
    description: tool.description.trim(),
    summary: summaryLine(tool.description),
    readonly: tool.readonly ?? true,
    requiresConfirmation: tool.confirm !== undefined,
    ...(typeof tool.confirm?.when === "string" && tool.confirm.when.trim() ? { confirmWhen: tool.confirm.when.trim() } : {}),
    inputSchema,
    ...(dialect ? { schemaDialect: dialect } : {}),
    resolve: typeof exported === "function" ? (ctx) => (exported as (ctx: ToolContext) => ToolDefinition)(ctx) : () => tool,
  };
}

type LoadResult = { candidate: Candidate } | { diagnostic: Diagnostic };

async function loadEntry(pkg: PluginPackage, toolName: string, spec: unknown, ctx: ToolContext, timeoutMs: number): Promise<LoadResult> {
  const base = { package: pkg.name, version: pkg.version, entry: toolName };
  const imported = await importEntry(pkg, toolName, spec, timeoutMs, './dist/tools.js#myTool" in package.json "toolroom.tools');
  if ("diagnostic" in imported) return imported;
  const { module: loaded, file, exportName, stamp } = imported;
  const exported = loaded[exportName];
  if (exported === undefined) {
    return {
      diagnostic: {
        ...base,
        kind: "not-a-tool",
        message: `${file} has no export "${exportName}"`,
        hint: `Export the tool as "${exportName}", or change the manifest entry.`,
      },
    };
  }
  const tool = resolveExport(exported, ctx);
  const problem = tool instanceof Error ? tool.message : whyNotATool(tool);
  if (problem) {
    return {
      diagnostic: {
        ...base,
        kind: "not-a-tool",
        message: `export "${exportName}" of ${file} is not a tool: ${problem}`,
        hint: "Export an object made with defineTool({ name, description, input, execute }), or a factory (ctx) => tool.",
      },
    };
  }
  const definition = tool as ToolDefinition;
  if (definition.name !== toolName) {
    return {
      diagnostic: {
        ...base,
        kind: "name-mismatch",
        message: `manifest entry "${toolName}" names a tool whose name is "${definition.name}"`,
        hint: `Make the manifest key and the tool's name the same string ("${toolName}" or "${definition.name}").`,
      },
    };
  }
  try {
    return { candidate: { ...(await describe(definition, exported, "plugin", pkg, { file, exportName })), moduleStamp: stamp } };
  } catch (error) {
    return {
      diagnostic: {
        ...base,
        kind: "not-a-tool",
        message: `its input schema cannot be read: ${(error as Error).message}`,
        hint: "Use a zod object schema or jsonSchema({...}).",
      },
    };
  }
}
