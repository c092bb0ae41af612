import { cn } from "@/components/ui/cn";
import { confirmationLabel, type ToolJson } from "@/lib/tools/registry-json";
import { Badge, type BadgeTone } from "@/components/ui/badge";

export type BadgeKind = "builtin" | "plugin" | "mcp" | "readonly" | "changes-state" | "needs-confirmation" | "disabled";

const TONE: Record<BadgeKind, BadgeTone> = {
  builtin: "neutral",
  plugin: "accent",
  mcp: "violet",
  readonly: "done",
  "changes-state": "denied",
  "needs-confirmation": "pending",
  disabled: "neutral",
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

/** The badge's text: an MCP tool's origin badge names its server (`mcp:fs`), confirmation says when it asks, the rest are fixed. */
export function badgeLabel(kind: BadgeKind, tool: Pick<ToolJson, "source_package" | "confirm_when">): string {
  if (kind === "needs-confirmation") return confirmationLabel(tool.confirm_when);
  return kind === "mcp" ? tool.source_package : BADGE_LABELS[kind];
}

export function ToolBadge({ kind, label }: { kind: BadgeKind; label?: string }) {
  return (
    <Badge tone={TONE[kind]} data-testid={`badge-${kind}`} className={cn(kind === "mcp" && "font-mono", kind === "disabled" && "bg-subtle line-through")}>
      {label ?? BADGE_LABELS[kind]}
    </Badge>
  );
}
