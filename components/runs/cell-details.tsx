import Link from "next/link";
import { ms, pct } from "./format";
import { NotRecorded } from "./section";
import type { CellView } from "./types";

function Counts({ counts, tone }: { counts: Record<string, number> | null; tone?: (key: string) => string }) {
  if (counts === null) return <NotRecorded />;
  const entries = Object.entries(counts);
  if (entries.length === 0) return <span className="text-muted">none</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {entries.map(([k, n]) => (
        <span key={k} className={`rounded border px-1 font-mono text-[11px] ${tone?.(k) ?? "border-border"}`}>
          {k} <span className="tabular">{n}</span>
        </span>
      ))}
    </span>
  );
}

const exitTone = (k: string) => (k === "ok" || k === "completed" ? "border-done/40 text-green-700 dark:text-done" : "border-denied/40 text-denied");

/** A cell opened in the matrix table: its trials, hints and exit statuses; an eval's in eval terms (trial time, mode, no confound). */
export function CellDetails({ cell, evalRun = false }: { cell: CellView; evalRun?: boolean }) {
  return (
    <div data-testid="cell-details" className="grid gap-x-6 gap-y-2 border-t border-border bg-subtle/50 px-4 py-3 text-xs sm:grid-cols-2">
      {cell.error ? (
        <p className="font-mono text-denied sm:col-span-2" data-testid="cell-error">
          cell error: {cell.error}
        </p>
      ) : null}
      <div className="space-y-1.5">
        <Row label="trials">
          <span className="font-mono tabular">
            {cell.trials ?? "–"} run · {cell.passed ?? "–"} passed ·{" "}
            <span className={(cell.failed ?? 0) > 0 ? "text-denied" : ""}>{cell.failed ?? "–"} failed</span> · {cell.errors ?? "–"} errors
          </span>
        </Row>
        <Row label="exit statuses">
          <span data-testid="cell-exit-statuses">
            <Counts counts={cell.exitStatus} tone={exitTone} />
          </span>
        </Row>
        <Row label="outcomes">
          <Counts counts={cell.outcomes} tone={exitTone} />
        </Row>
        <Row label={evalRun ? "trial time" : "step time"}>
          <span className="font-mono tabular">
            p50 {ms(cell.p50Ms)} · p90 {ms(cell.p90Ms)} · p99 {ms(cell.p99Ms)} ms · fail {pct(cell.failureRate)} · err {pct(cell.errorRate)}
          </span>
        </Row>
        <Row label={evalRun ? "mode" : "mitigations"}>
          {cell.mitigations === null ? <NotRecorded /> : <span className="font-mono">{cell.mitigations.join(", ") || "none"}</span>}
        </Row>
        {evalRun ? null : <Row label="confound">{cell.confound === null ? <NotRecorded /> : <span className="font-mono">{cell.confound}</span>}</Row>}
      </div>
      <div className="space-y-1.5">
        <Row label="failure hints">
          {cell.hints === null ? (
            <NotRecorded />
          ) : cell.hints.length === 0 ? (
            <span className="text-muted">none</span>
          ) : (
            <ul data-testid="cell-hints" className="space-y-0.5">
              {cell.hints.map((h, i) => (
                <li key={i} className="font-mono">
                  {h.text}
                  {h.count !== null ? <span className="text-muted"> ×{h.count}</span> : null}
                </li>
              ))}
            </ul>
          )}
        </Row>
        {cell.failingCases ? (
          <Row label="failing cases">
            {cell.failingCases.length === 0 ? (
              <span className="text-muted">none</span>
            ) : (
              <ul data-testid="cell-failing-cases" className="max-h-40 space-y-0.5 overflow-auto">
                {cell.failingCases.map((f) => (
                  <li key={`${f.case}#${f.trial}`} className="font-mono">
                    {f.chatId ? (
                      <Link href={`/chat/${f.chatId}`} className="text-accent hover:underline">
                        {f.case} #{f.trial ?? "?"}
                      </Link>
                    ) : (
                      <span>
                        {f.case} #{f.trial ?? "?"}
                      </span>
                    )}
                    {f.reason ? <span className="text-muted"> — {f.reason}</span> : null}
                  </li>
                ))}
              </ul>
            )}
          </Row>
        ) : null}
        <Row label="trial results">
          {cell.trialPaths === null ? (
            <NotRecorded />
          ) : cell.trialPaths.length === 0 ? (
            <span className="text-muted">none recorded</span>
          ) : (
            <ul data-testid="cell-trials" className="max-h-32 space-y-0.5 overflow-auto">
              {cell.trialPaths.map((p) => (
                <li key={p} className="truncate font-mono text-muted" title={p}>
                  {p}
                </li>
              ))}
            </ul>
          )}
        </Row>
      </div>
    </div>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[7rem_1fr] items-baseline gap-2">
      <span className="text-muted">{label}</span>
      <div className="min-w-0">{children}</div>
    </div>
  );
}
