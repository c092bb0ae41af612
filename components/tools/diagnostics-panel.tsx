import { AlertTriangle } from "lucide-react";
import type { Diagnostic } from "@/lib/tools/registry-types";

const KIND_LABELS: Record<Diagnostic["kind"], string> = {
  "import-failed": "import failed",
  "not-a-tool": "not a tool",
  "name-mismatch": "name mismatch",
  "bad-manifest": "bad manifest entry",
  "source-failed": "source failed",
};

export function DiagnosticsPanel({ diagnostics }: { diagnostics: Diagnostic[] }) {
  if (diagnostics.length === 0) return null;
  return (
    <section data-testid="diagnostics-panel" aria-labelledby="diagnostics-title" className="rounded-lg border border-pending/50 bg-amber-50/60 p-4 dark:bg-amber-950/20">
      <h2 id="diagnostics-title" className="flex items-center gap-2 text-sm font-semibold">
        <AlertTriangle size={15} className="text-pending" aria-hidden />
        {diagnostics.length} plugin entr{diagnostics.length === 1 ? "y was" : "ies were"} skipped
      </h2>
      <ul className="mt-3 space-y-3">
        {diagnostics.map((d) => (
          <li key={`${d.package}:${d.entry}`} data-testid="diagnostic" className="rounded-md border border-border bg-panel p-3 text-sm">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-mono font-medium">{d.entry}</span>
              <span className="font-mono text-xs text-muted">
                [{d.package}
                {d.version ? `@${d.version}` : ""}]
              </span>
              <span className="rounded border border-denied/40 px-1.5 text-[11px] text-denied">{KIND_LABELS[d.kind]}</span>
            </div>
            <p className="mt-1.5" data-testid="diagnostic-message">{d.message}</p>
            <p className="mt-1 text-xs text-muted">How to fix: {d.hint}</p>
            {d.stack || d.stderr ? (
              <details className="mt-2">
                <summary className="cursor-pointer text-xs text-muted">{d.stack ? "Stack trace" : "Server output"}</summary>
                <pre className="mt-1 max-h-64 overflow-auto rounded bg-subtle p-2 font-mono text-[11px] leading-4">{d.stack ?? d.stderr}</pre>
              </details>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
