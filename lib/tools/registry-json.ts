import type { Diagnostic, Registry } from "./registry-types";
import type { JsonSchema } from "./schema";

export interface ToolJson {
  source_package: string;
  version: string;
  origin: string;
  description: string;
  readonly: boolean;
  requires_confirmation: boolean;
  /** `confirm.when`: when the tool asks ("when the note is longer than 20 characters"); null: it may ask. */
  confirm_when: string | null;
  enabled: boolean;
  input_schema: JsonSchema;
  /** The module failed to import again: this is the last version that loaded (since: ISO time). */
  stale: { since: string; reason: string } | null;
}

/** The one JSON shape of the registry: `toolroom tools --json`, `GET /api/tools`, the pages. */
export function registryJson(registry: Registry): Record<string, ToolJson> {
  const out: Record<string, ToolJson> = {};
  for (const tool of registry.tools) {
    out[tool.name] = {
      source_package: tool.sourcePackage,
      version: tool.version,
      origin: tool.origin,
      description: tool.description,
      readonly: tool.readonly,
      requires_confirmation: tool.requiresConfirmation,
      confirm_when: tool.requiresConfirmation ? (tool.confirmWhen ?? null) : null,
      enabled: tool.enabled,
      input_schema: tool.inputSchema,
      stale: tool.stale ?? null,
    };
  }
  return out;
}

/** The confirmation badge's text: "asks when …" from `confirm.when`, else "may ask" (evaluate decides per call). */
export function confirmationLabel(when: string | null | undefined): string {
  return when ? `asks ${when}` : "may ask";
}

/** The same as a sentence (Try it, the CLI). */
export function confirmationSentence(when: string | null | undefined): string {
  return when ? `Asks for approval ${when}.` : "May ask for approval before it runs (the tool decides per call).";
}

/** "stale since 14:02 because importing ./dist/tools.js failed: …" (local time). */
export function staleLabel(stale: { since: string; reason: string }): string {
  const at = new Date(stale.since);
  const hhmm = `${String(at.getHours()).padStart(2, "0")}:${String(at.getMinutes()).padStart(2, "0")}`;
  return `stale since ${hhmm} because ${stale.reason}`;
}

/** `name  [package]` and the summary indented under it, sorted by name. */
export function registryText(registry: Registry): string {
  return registry.tools
    .map((tool) => {
      const marks = `${tool.enabled ? "" : " (disabled)"}${tool.stale ? ` (${staleLabel(tool.stale)})` : ""}`;
      return `${tool.name}  [${tool.sourcePackage}]${marks}\n    ${tool.summary}`;
    })
    .join("\n");
}

export function diagnosticLine(d: Diagnostic): string {
  if (d.kind === "source-failed") return `${d.package} failed (${d.entry}): ${d.message}`;
  return `skipped ${d.package}${d.version ? `@${d.version}` : ""} entry "${d.entry}" (${d.kind}): ${d.message}`;
}

/**
 * A diagnostic as the CLI and the server log print it: the line, where the module failed with the
 * code around it, and the same "How to fix" the Tools page shows.
 */
export function diagnosticReport(d: Diagnostic): string {
  const lines = [diagnosticLine(d)];
  if (d.location) {
    lines.push(`    at ${d.location.file}:${d.location.line}:${d.location.column}`);
    if (d.location.frame) lines.push(d.location.frame.replace(/^/gm, "    "));
  }
  lines.push(`    How to fix: ${d.hint}`);
  return lines.join("\n");
}
