import { Server } from "lucide-react";
import { cn } from "@/components/ui/cn";
import type { Diagnostic, SourceStatus } from "@/lib/tools/registry-types";
import { diagnosticId } from "./diagnostic-anchor";
import { Button } from "@/components/ui/button";

const STATE = {
  connected: { dot: "bg-done", text: "text-done", label: "connected" },
  failed: { dot: "bg-denied", text: "text-denied", label: "failed" },
} as const;

/**
 * The MCP servers of the settings: which answered (with their tools) and which did not (with the
 * reason; the diagnostics panel above holds the full hint and the server's stderr).
 */
export function SourcesPanel({
  sources,
  diagnostics,
  onShowTools,
}: {
  sources: SourceStatus[];
  diagnostics: Diagnostic[];
  onShowTools: (sourcePackage: string) => void;
}) {
  if (sources.length === 0) return null;
  const connected = sources.filter((s) => s.state === "connected").length;
  const failed = sources.length - connected;
  return (
    <section data-testid="sources-panel" aria-labelledby="sources-title" className="overflow-hidden rounded-lg border border-border bg-panel">
      <div className="flex items-center gap-2 border-b border-border bg-subtle/60 px-4 py-2">
        <Server size={14} className="text-muted" aria-hidden />
        <h2 id="sources-title" className="text-xs font-semibold tracking-wide text-muted uppercase">
          MCP servers
        </h2>
        <span className="ml-auto text-xs text-muted tabular" data-testid="sources-count">
          {connected} connected{failed ? ` · ${failed} failed` : ""}
        </span>
      </div>
      <ul className="divide-y divide-border">
        {sources.map((source) => {
          const state = STATE[source.state];
          const failure = source.state === "failed" ? diagnostics.find((d) => d.kind === "source-failed" && d.package === source.package) : undefined;
          return (
            <li
              key={source.package}
              data-testid="source-row"
              data-source={source.package}
              data-state={source.state}
              className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-4 gap-y-0.5 px-4 py-2 lg:grid-cols-[13rem_minmax(0,1fr)_auto]"
            >
              <div className="flex min-w-0 items-center gap-2">
                <span className={cn("size-2 shrink-0 rounded-full", state.dot)} aria-hidden />
                <span className="truncate font-mono text-sm font-medium">{source.package}</span>
                <span className={cn("text-xs", state.text)} data-testid="source-state">
                  {state.label}
                </span>
              </div>
              <div className="col-span-2 row-start-2 min-w-0 lg:col-span-1 lg:col-start-2 lg:row-start-1">
                <div className="truncate font-mono text-xs text-muted" title={source.target} data-testid="source-target">
                  <span className="mr-1.5 rounded border border-border px-1 text-[10px] uppercase">{source.transport}</span>
                  {source.target}
                </div>
                {failure ? (
                  <p className="truncate text-xs text-denied" title={failure.message} data-testid="source-error">
                    {failure.message}
                  </p>
                ) : source.server ? (
                  <p className="truncate text-xs text-muted" data-testid="source-server">
                    {source.server.title ?? source.server.name} <span className="tabular">{source.server.version}</span>
                    {source.prefix ? (
                      <>
                        {" · prefix "}
                        <code className="font-mono">{source.prefix}</code>
                      </>
                    ) : null}
                  </p>
                ) : null}
              </div>
              <div className="col-start-2 row-start-1 text-right text-xs lg:col-start-3">
                {source.state === "connected" ? (
                  <Button variant="link" size="bare" onClick={() => onShowTools(source.package)} className="tabular" data-testid="source-tools">
                    {source.toolCount} tool{source.toolCount === 1 ? "" : "s"}
                  </Button>
                ) : failure ? (
                  <a href={`#${diagnosticId(failure)}`} className="text-accent hover:underline">
                    Why?
                  </a>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
