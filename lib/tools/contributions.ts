import { importEntry } from "./entry-module";
import type { PluginPackage } from "./manifest";
import type { Diagnostic, RegisteredPrompt, RegisteredResource } from "./registry-types";
import type { PromptDefinition, ResourceDefinition, ResourceTemplateDefinition } from "./types";

export interface Contributions {
  resources: RegisteredResource[];
  prompts: RegisteredPrompt[];
  diagnostics: Diagnostic[];
}

/**
 * Resources and prompts of plugin packages (`toolroom.resources`, `toolroom.prompts`), loaded
 * with the tools' rules: a broken entry is a diagnostic and is skipped; a URI (or template) or
 * prompt name claimed twice keeps the first package's and reports the second; an import that never
 * settles is skipped after `timeoutMs`, as a tool's is.
 */
export async function loadContributions(packages: PluginPackage[], timeoutMs: number): Promise<Contributions> {
  const out: Contributions = { resources: [], prompts: [], diagnostics: [] };
  const seen = new Map<string, string>();
  const claim = (key: string, pkg: PluginPackage, entry: string): boolean => {
    const owner = seen.get(key);
    if (owner === undefined) {
      seen.set(key, pkg.name);
      return true;
    }
    out.diagnostics.push({
      kind: "bad-manifest",
      package: pkg.name,
      version: pkg.version,
      entry,
      message: `${key} is already contributed by "${owner}"`,
      hint: "Give the resource another URI (or the prompt another name), or disable one package with plugins.disabled.",
    });
    return false;
  };
  // Every entry is imported at once (each import bounded by `timeoutMs`), then claimed in manifest order.
  const imports = packages.map((pkg) => ({
    resources: Object.entries(pkg.resources).map(([name, spec]) => [name, loadExport(pkg, name, spec, timeoutMs, whyNotAResource)] as const),
    prompts: Object.entries(pkg.prompts).map(([name, spec]) => [name, loadExport(pkg, name, spec, timeoutMs, whyNotAPrompt)] as const),
  }));
  for (const [i, pkg] of packages.entries()) {
    const base = { sourcePackage: pkg.name, version: pkg.version };
    for (const [name, loading] of imports[i]!.resources) {
      const loaded = await loading;
      if ("diagnostic" in loaded) out.diagnostics.push(loaded.diagnostic);
      else if ("uriTemplate" in loaded.value) {
        const definition = loaded.value as ResourceTemplateDefinition;
        if (claim(`resource template ${definition.uriTemplate}`, pkg, name)) out.resources.push({ ...base, kind: "template", definition });
      } else {
        const definition = loaded.value as ResourceDefinition;
        if (claim(`resource ${definition.uri}`, pkg, name)) out.resources.push({ ...base, kind: "resource", definition });
      }
    }
    for (const [name, loading] of imports[i]!.prompts) {
      const loaded = await loading;
      if ("diagnostic" in loaded) out.diagnostics.push(loaded.diagnostic);
      else if (claim(`prompt ${name}`, pkg, name)) out.prompts.push({ ...base, definition: loaded.value as PromptDefinition });
    }
  }
  return out;
}

function whyNotAResource(value: unknown): string | null {
  if (typeof value !== "object" || value === null) return "it is not an object";
  const r = value as Record<string, unknown>;
  if (typeof r.name !== "string" || !r.name) return "it has no name";
  if (typeof r.description !== "string") return "it has no description";
  if (typeof r.uri !== "string" && typeof r.uriTemplate !== "string") return "it has neither a uri nor a uriTemplate";
  if (typeof r.read !== "function") return "it has no read function";
  return null;
}

function whyNotAPrompt(value: unknown): string | null {
  if (typeof value !== "object" || value === null) return "it is not an object";
  const p = value as Record<string, unknown>;
  if (typeof p.name !== "string" || !p.name) return "it has no name";
  if (typeof p.description !== "string") return "it has no description";
  if (typeof p.get !== "function") return "it has no get function";
  if (p.arguments !== undefined && !Array.isArray(p.arguments)) return "its arguments are not a list";
  return null;
}

type Loaded = { value: object } | { diagnostic: Diagnostic };

async function loadExport(pkg: PluginPackage, name: string, spec: unknown, timeoutMs: number, whyNot: (value: unknown) => string | null): Promise<Loaded> {
  const base = { package: pkg.name, version: pkg.version, entry: name };
  const imported = await importEntry(pkg, name, spec, timeoutMs, "./dist/resources.js#myResource");
  if ("diagnostic" in imported) return imported;
  const { module: loaded, file, exportName } = imported;
  const value = loaded[exportName];
  const problem = value === undefined ? `${file} has no export "${exportName}"` : whyNot(value);
  if (problem)
    return {
      diagnostic: {
        ...base,
        kind: "not-a-tool",
        message: `export "${exportName}" of ${file}: ${problem}`,
        hint: "Export an object made with defineResource, defineResourceTemplate or definePrompt.",
      },
    };
  const declared = (value as { name: string }).name;
  if (declared !== name) {
    return {
      diagnostic: {
        ...base,
        kind: "name-mismatch",
        message: `manifest entry "${name}" names one whose name is "${declared}"`,
        hint: `Make the manifest key and the name the same string ("${name}" or "${declared}").`,
      },
    };
  }
  return { value: value as object };
}
