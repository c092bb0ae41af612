import type { ReloadNotice } from "@/lib/server/runtime/reload-diff";
import type { ToolsResponse } from "@/lib/server/tools-page/tools-view";

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "14:02": the reload's time as the person's clock shows it. */
export function clock(iso: string): string {
  return new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/** "+1 tool, 1 changed, 1 model added": what a successful reload changed, or that nothing did. */
export function reloadSummary(notice: ReloadNotice): string {
  const { tools, models } = notice;
  const parts = [
    tools.added.length ? `+${count(tools.added.length, "tool")}` : "",
    tools.removed.length ? `−${count(tools.removed.length, "tool")}` : "",
    tools.changed.length ? `${tools.changed.length} changed` : "",
    models.added.length ? `${count(models.added.length, "model")} added` : "",
    models.removed.length ? `${count(models.removed.length, "model")} removed` : "",
    notice.stale?.length ? `${count(notice.stale.length, "tool")} kept stale (a failed import)` : "",
    notice.reconnected?.length ? `${count(notice.reconnected.length, "MCP server")} reconnected` : "",
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "no tool changed";
}

/**
 * The line under the tool list about plugins, or null when plugin tools are listed: "No plugin
 * installed" only when no package is there at all, not when every one was skipped or disabled.
 */
export function pluginsHint(data: Pick<ToolsResponse, "tools" | "diagnostics" | "disabledPackages">): string | null {
  if (Object.values(data.tools).some((t) => t.origin === "plugin")) return null;
  const skipped = new Set(data.diagnostics.filter((d) => d.kind !== "source-failed" && !d.package.startsWith("mcp:")).map((d) => d.package));
  const disabled = data.disabledPackages.length;
  const parts: string[] = [];
  if (skipped.size) parts.push(`${count(skipped.size, "plugin package")} installed, all of ${skipped.size === 1 ? "its" : "their"} tools skipped (see above)`);
  if (disabled) parts.push(`${count(disabled, "plugin package")} disabled by plugins.disabled`);
  return parts.length ? `${parts.join("; ")}.` : null;
}
