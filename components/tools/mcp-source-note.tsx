import { Server } from "lucide-react";
import type { RegisteredTool } from "@/lib/tools/registry-types";

/** An MCP tool's code runs in its server's process: the page says where, instead of showing source. */
export function McpSourceNote({ tool }: { tool: Pick<RegisteredTool, "sourcePackage" | "entry"> }) {
  const server = tool.sourcePackage.replace(/^mcp:/, "");
  return (
    <div className="flex gap-3 rounded-md border border-border bg-panel p-3 text-sm" data-testid="mcp-source">
      <Server size={16} className="mt-0.5 shrink-0 text-muted" aria-hidden />
      <div className="min-w-0 space-y-1">
        <p>
          Served by MCP server <span className="font-mono font-medium">{server}</span>, as its tool <span className="font-mono">{tool.entry.exportName}</span>.
        </p>
        <p className="text-xs text-muted">
          Its code runs in that server&apos;s process (see Source server above), so there is no source to show here; the server&apos;s own documentation
          describes it.
        </p>
      </div>
    </div>
  );
}
