import type { Settings } from "@/lib/settings/schema";
import { diagnosticLine } from "@/lib/tools/registry-json";
import type { Registry } from "@/lib/tools/registry-types";
import { counted } from "../counted";

/** A doctor check that passes with a warning: worth a look, but nothing stops the server. */
export interface Warning {
  warning: string;
  /** Indented under the warning, one item a line. */
  details: string[];
}

/** Plugin entries the registry skipped, each with its "How to fix" (MCP servers are the registry check's). */
export function skippedEntriesCheck(registry: Registry): string | Warning {
  const skipped = registry.diagnostics.filter((d) => d.kind !== "source-failed");
  const packages = new Set(registry.tools.filter((t) => t.origin === "plugin").map((t) => t.sourcePackage));
  if (skipped.length === 0) return packages.size ? `${counted(packages.size, "plugin package")}, no entry skipped` : "no plugin installed";
  return {
    warning: `${counted(skipped.length, "plugin entry", "plugin entries")} skipped (toolroom tools shows each with its code)`,
    details: skipped.map((d) => `${diagnosticLine(d)}\n  How to fix: ${d.hint}`),
  };
}

/** Where each provider reads its key when the entry has no `apiKey`. */
const KEY_VARIABLES: Partial<Record<string, { variable: string; header: string }>> = {
  openai: { variable: "OPENAI_API_KEY", header: "authorization" },
  anthropic: { variable: "ANTHROPIC_API_KEY", header: "x-api-key" },
};

/**
 * Configured models that would fail their first call for want of a key. openai-compatible servers
 * (Ollama, vLLM, LM Studio) usually need none, so they are not counted.
 */
export function modelKeysCheck(settings: Settings, env: Record<string, string | undefined> = process.env): string | Warning {
  const missing: string[] = [];
  for (const [name, entry] of Object.entries(settings.llms)) {
    if ("type" in entry) continue;
    const key = KEY_VARIABLES[entry.provider];
    if (!key || entry.apiKey || env[key.variable]) continue;
    if (Object.keys(entry.headers ?? {}).some((h) => h.toLowerCase() === key.header)) continue;
    missing.push(`llms.${name} (${entry.provider}): no API key; set ${key.variable}, or llms.${name}.apiKey in toolroom.yaml`);
  }
  const count = Object.keys(settings.llms).length;
  if (missing.length === 0) return `${counted(count, "model")} configured, none missing a key`;
  return { warning: `${counted(missing.length, "configured model")} without an API key`, details: missing };
}
