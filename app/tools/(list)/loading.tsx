import { Skeleton } from "@/components/ui/skeleton";

/**
 * While the server builds the tool registry (plugins imported, MCP servers asked). Only the list has
 * it (the (list) route group): a loading boundary would send a tool page's 200 before its 404.
 */
export default function ToolsLoading() {
  return (
    <div data-testid="tools-loading" aria-busy="true">
      <div className="border-b border-border px-6 pt-5 pb-4">
        <Skeleton className="h-5 w-32" />
        <Skeleton className="mt-2 h-4 w-96 max-w-full" />
      </div>
      <div className="space-y-2 p-6">
        <Skeleton className="mb-4 h-8 w-72" />
        {Array.from({ length: 8 }, (_, i) => (
          <Skeleton key={i} className="h-12" />
        ))}
        <p className="pt-1 text-xs text-muted">Loading tools…</p>
      </div>
    </div>
  );
}
