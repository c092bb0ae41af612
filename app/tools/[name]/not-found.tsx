import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";

export default function ToolNotFound() {
  return (
    <div className="p-6" data-testid="tool-not-found">
      <h1 className="text-lg font-semibold">Tool not found</h1>
      <EmptyState title="No tool by that name is registered">
        It may come from a plugin that is not installed, is disabled in <code className="font-mono">plugins.disabled</code>, or was skipped at startup, or from
        an MCP server that did not start.{" "}
        <Link href="/tools" className="text-accent underline">
          See all tools, skipped plugins and MCP servers
        </Link>
        .
      </EmptyState>
    </div>
  );
}
