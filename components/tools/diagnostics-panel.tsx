import { AlertTriangle } from "lucide-react";
import type { Diagnostic } from "@/lib/tools/registry-types";
import { diagnosticId } from "./diagnostic-anchor";

const KIND_LABELS: Record<Diagnostic["kind"], string> = {
  "import-failed": "import failed",
  "import-timed-out": "import timed out",
  "not-a-tool": "not a tool",
  "name-mismatch": "name mismatch",
  "bad-manifest": "bad manifest entry",
  "source-failed": "server failed",
};

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "2 plugin entries were skipped · 1 MCP server failed": what went wrong, counted by kind. */
function heading(diagnostics: Diagnostic[]): string {
  const servers = diagnostics.filter((d) => d.kind === "source-failed").length;
  const mcpTools = diagnostics.filter((d) => d.kind !== "source-failed" && d.package.startsWith("mcp:")).length;
  const entries = diagnostics.length - servers - mcpTools;
  const parts: string[] = [];
  if (entries) parts.push(`${plural(entries, "plugin entry was", "plugin entries were")} skipped`);
  if (mcpTools) parts.push(`${plural(mcpTools, "MCP tool was", "MCP tools were")} skipped`);
  if (servers) parts.push(`${plural(servers, "MCP server", "MCP servers")} failed`);
  return parts.join(" · ");
}

export function DiagnosticsPanel({ diagnostics }: { diagnostics: Diagnostic[] }) {
  if (diagnostics.length === 0) return null;
  return (
    <section
      data-testid="diagnostics-panel"
      aria-labelledby="diagnostics-title"
      className="rounded-lg border border-pending/50 bg-amber-50/60 p-4 dark:bg-amber-950/20"
    >
      <h2 id="diagnostics-title" className="flex items-center gap-2 text-sm font-semibold">
        <AlertTriangle size={15} className="text-pending" aria-hidden />
        {heading(diagnostics)}
      </h2>
      <ul className="mt-3 space-y-3">
        {diagnostics.map((d) => {
          const server = d.kind === "source-failed";
          return (
            <li
              key={`${d.package}:${d.entry}`}
              id={diagnosticId(d)}
              data-testid="diagnostic"
              data-package={d.package}
              className="scroll-mt-4 rounded-md border border-border bg-panel p-3 text-sm"
            >
              <div className="flex flex-wrap items-center gap-2">
                {/* A server is named by its settings key; its command line follows, as written. */}
                <span className="font-mono font-medium">{server ? d.package : d.entry}</span>
                <span className="min-w-0 font-mono text-xs break-all text-muted">
                  {server ? (
                    d.entry
                  ) : (
                    <>
                      [{d.package}
                      {d.version ? `@${d.version}` : ""}]
                    </>
                  )}
                </span>
                <span className="rounded border border-denied/40 px-1.5 text-[11px] text-denied">{KIND_LABELS[d.kind]}</span>
              </div>
              <p className="mt-1.5" data-testid="diagnostic-message">
                {d.message}
              </p>
              {d.keptLastGood ? (
                <p className="mt-1 text-xs text-amber-700 dark:text-pending" data-testid="diagnostic-kept">
                  Still serving the last version that loaded (marked stale in the list) until this is fixed.
                </p>
              ) : null}
              <p className="mt-1 text-xs text-muted">How to fix: {d.hint}</p>
              {d.location ? (
                <div className="mt-2" data-testid="diagnostic-location">
                  <div className="font-mono text-xs break-all">
                    {d.location.file}:{d.location.line}:{d.location.column}
                  </div>
                  {d.location.frame ? (
                    <pre className="mt-1 overflow-auto rounded bg-subtle p-2 font-mono text-[11px] leading-4" data-testid="diagnostic-frame">
                      {d.location.frame}
                    </pre>
                  ) : null}
                </div>
              ) : null}
              {d.stack || d.stderr ? (
                // A server's stderr is usually the whole story, so it starts open; stacks are long.
                <details className="mt-2" open={!d.stack}>
                  <summary className="cursor-pointer text-xs text-muted">{d.stack ? "Stack trace" : "Server output (stderr)"}</summary>
                  <pre
                    className="mt-1 max-h-64 overflow-auto rounded bg-subtle p-2 font-mono text-[11px] leading-4 whitespace-pre-wrap"
                    data-testid="diagnostic-output"
                  >
                    {d.stack ?? d.stderr}
                  </pre>
                </details>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
