import { cn } from "@/components/ui/cn";
import type { ToolJson } from "@/lib/tools/registry-json";

export type BadgeKind = "builtin" | "plugin" | "mcp" | "readonly" | "changes-state" | "needs-confirmation" | "disabled";

const STYLES: Record<BadgeKind, string> = {
  builtin: "border-border text-muted",
  plugin: "border-accent/40 text-accent",
  mcp: "border-violet-500/40 text-violet-600 dark:text-violet-400",
  readonly: "border-done/40 text-done",
  "changes-state": "border-denied/40 text-denied",
  "needs-confirmation": "border-pending/50 text-amber-700 dark:text-pending",
  disabled: "border-border bg-subtle text-muted line-through",
};

export const BADGE_LABELS: Record<BadgeKind, string> = {
  builtin: "built-in",
  plugin: "plugin",
  mcp: "mcp",
  readonly: "read-only",
  "changes-state": "changes state",
  "needs-confirmation": "needs confirmation",
  disabled: "disabled",
};

export function badgesOf(tool: ToolJson): BadgeKind[] {
  const out: BadgeKind[] = [tool.origin === "builtin" ? "builtin" : tool.origin === "mcp" ? "mcp" : "plugin"];
  out.push(tool.readonly ? "readonly" : "changes-state");
  if (tool.requires_confirmation) out.push("needs-confirmation");
  if (!tool.enabled) out.push("disabled");
  return out;
}

/** The badge's text: an MCP tool's origin badge names its server (`mcp:fs`), the rest are fixed. */
export function badgeLabel(kind: BadgeKind, tool: Pick<ToolJson, "source_package">): string {
  return kind === "mcp" ? tool.source_package : BADGE_LABELS[kind];
}

export function Badge({ kind, label }: { kind: BadgeKind; label?: string }) {
  return (
    <span data-testid={`badge-${kind}`} className={cn("inline-flex items-center rounded border px-1.5 py-px text-[11px] leading-4 whitespace-nowrap", kind === "mcp" && "font-mono", STYLES[kind])}>
      {label ?? BADGE_LABELS[kind]}
    </span>
  );
}
