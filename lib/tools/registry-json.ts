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

/** `name  [package]` and the summary indented under it, sorted by name. */
export function registryText(registry: Registry): string {
  return registry.tools.map((tool) => `${tool.name}  [${tool.sourcePackage}]${tool.enabled ? "" : " (disabled)"}\n    ${tool.summary}`).join("\n");
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
