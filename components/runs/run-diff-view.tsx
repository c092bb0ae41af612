import Link from "next/link";
import { EvalCellsCompare, passTone } from "@/components/evals/eval-cells-compare";
import { EvalChanges } from "@/components/evals/eval-changes";
import { EvalPassRate } from "@/components/evals/eval-pass-rate";
import { cn } from "@/components/ui/cn";
import { rateTone, timeTone, TONE_CLASS } from "./diff-tone";
import { jsonPreview, ms, NOT_RECORDED, pct, signed, when } from "./format";
import { runHref } from "./filter-runs";
import { Section } from "./section";
import type { RunDiffSide, RunDiff } from "./types";
import { VerdictBadge } from "./verdict-badge";
import { Table, TableHeader, TableBody, TableRow, TableHead, TableCell } from "@/components/ui/table";

function SideCard({ label, side, override }: { label: string; side: RunDiffSide; override: string | null }) {
  return (
    <div className="min-w-0 flex-1 rounded-lg border border-border bg-panel p-3" data-testid={`compare-side-${label.toLowerCase()}`}>
      <div className="flex items-center gap-2">
        <span className="rounded bg-subtle px-1.5 font-mono text-xs font-semibold">{label}</span>
        {side.eval ? <EvalPassRate facts={side.eval} /> : <VerdictBadge verdict={side.verdict} />}
        <span className="ml-auto font-mono text-xs text-muted tabular">{when(side.when)}</span>
      </div>
      <Link href={runHref(side.rel, override)} className="mt-1 block truncate font-mono text-xs hover:text-accent hover:underline" title={side.rel}>
        {side.rel}
      </Link>
      <p className="mt-0.5 text-xs text-muted">
        {side.eval
          ? `suite ${side.eval.suite} · ${side.eval.cells} cells · ${side.eval.cases} cases · ${side.eval.passed} of ${side.eval.trials} trials passed`
          : `${side.cells === null ? "no matrix" : `${side.cells} cells`} · env from ${side.envLabel ?? "nothing recorded"}`}
      </p>
    </div>
  );
}

/** The cells section's note: how many matched, and which way they moved (pass rate for evals, failure rate for a harness). */
function cellsNote(view: RunDiff): string {
  const { matched, worse, better } = view.cellTotals;
  if (view.evalCells) {
    const tones = view.evalCells.map((c) => passTone(c.passRateDelta));
    const lower = tones.filter((t) => t === "worse").length;
    const higher = tones.filter((t) => t === "better").length;
    return `${view.evalCells.length.toLocaleString("en-US")} cells in both runs · pass rate lower in ${lower}, higher in ${higher}`;
  }
  return `${matched.toLocaleString("en-US")} matched by name · failure rate worse in ${worse}, better in ${better}${
    view.cells.length < matched ? ` · showing the ${view.cells.length} that changed most` : ""
  }`;
}

export function RunDiffView({ view }: { view: RunDiff }) {
  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 md:flex-row">
        <SideCard label="A" side={view.a} override={view.override} />
        <SideCard label="B" side={view.b} override={view.override} />
      </div>

      {view.evalChanges ? <EvalChanges changes={view.evalChanges} /> : null}

      <Section title="Cells" testId="compare-cells" note={view.matrixError ? undefined : cellsNote(view)}>
        {view.matrixError ? (
          <p role="alert" className="rounded-lg border border-dashed border-denied/40 p-4 font-mono text-xs text-denied" data-testid="compare-matrix-error">
            {view.matrixError}
          </p>
        ) : view.evalCells && view.evalCells.length > 0 ? (
          <EvalCellsCompare cells={view.evalCells} />
        ) : view.cells.length === 0 ? (
          <p className="rounded-lg border border-dashed border-border p-4 text-sm text-muted">No cell name occurs in both runs.</p>
        ) : (
          <div className="overflow-x-auto rounded-lg border border-border bg-panel">
            <Table className="w-full text-sm" data-testid="compare-table">
              <TableHeader className="border-b border-border bg-subtle/60 text-xs text-muted">
                <TableRow>
                  <TableHead className="px-3 py-2 text-left font-medium">Cell</TableHead>
                  <TableHead className="px-3 py-2 text-right font-medium">Fail A</TableHead>
                  <TableHead className="px-3 py-2 text-right font-medium">Fail B</TableHead>
                  <TableHead className="px-3 py-2 text-right font-medium">Δ fail</TableHead>
                  <TableHead className="px-3 py-2 text-right font-medium">Mean ms A</TableHead>
                  <TableHead className="px-3 py-2 text-right font-medium">Mean ms B</TableHead>
                  <TableHead className="px-3 py-2 text-right font-medium">Δ step time</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody className="divide-y divide-border">
                {view.cells.map((c) => {
                  const rt = rateTone(c.failureRateDelta);
                  const tt = timeTone(c.meanStepTimeRatio);
                  return (
                    <TableRow key={c.name} data-testid="compare-row" data-cell={c.name}>
                      <TableCell className="px-3 py-1.5 font-mono text-xs">
                        {c.name}
                        {c.a.error || c.b.error ? (
                          <span
                            className="ml-2 text-denied"
                            title={[c.a.error && `A: ${c.a.error}`, c.b.error && `B: ${c.b.error}`].filter(Boolean).join("\n")}
                          >
                            cell error
                          </span>
                        ) : null}
                      </TableCell>
                      <TableCell className="px-3 py-1.5 text-right font-mono text-xs tabular">{pct(c.a.failure_rate)}</TableCell>
                      <TableCell className="px-3 py-1.5 text-right font-mono text-xs tabular">{pct(c.b.failure_rate)}</TableCell>
                      <TableCell
                        className={cn("px-3 py-1.5 text-right font-mono text-xs font-medium tabular", TONE_CLASS[rt])}
                        data-testid="delta-failure"
                        data-tone={rt}
                      >
                        {signed(c.failureRateDelta, "pp")}
                      </TableCell>
                      <TableCell className="px-3 py-1.5 text-right font-mono text-xs tabular">{ms(c.a.mean_step_time_ms)}</TableCell>
                      <TableCell className="px-3 py-1.5 text-right font-mono text-xs tabular">{ms(c.b.mean_step_time_ms)}</TableCell>
                      <TableCell
                        className={cn("px-3 py-1.5 text-right font-mono text-xs font-medium tabular", TONE_CLASS[tt])}
                        data-testid="delta-step"
                        data-tone={tt}
                      >
                        {signed(c.meanStepTimeDeltaMs, "ms")}
                        {c.meanStepTimeRatio !== null ? (
                          <span className="ml-1 font-normal text-muted">({((c.meanStepTimeRatio - 1) * 100).toFixed(1)}%)</span>
                        ) : null}
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </div>
        )}
        {view.onlyInACount + view.onlyInBCount > 0 ? (
          <div className="grid gap-3 md:grid-cols-2" data-testid="compare-only">
            <OnlyIn label="Only in A" names={view.onlyInA} count={view.onlyInACount} testId="only-in-a" />
            <OnlyIn label="Only in B" names={view.onlyInB} count={view.onlyInBCount} testId="only-in-b" />
          </div>
        ) : null}
        {view.duplicateNames.length > 0 ? (
          <p className="text-xs text-amber-700 dark:text-pending">
            Cell names recorded more than once (only the first is compared): {view.duplicateNames.join(", ")}
          </p>
        ) : null}
      </Section>

      <Section
        title="Environment"
        testId="compare-env"
        note={
          view.env
            ? `${view.a.envLabel} → ${view.b.envLabel} · ${view.env.changed.length} changed, ${view.env.added.length} added, ${view.env.removed.length} removed`
            : undefined
        }
      >
        {view.envError ? (
          <p role="alert" className="rounded-lg border border-dashed border-border p-4 font-mono text-xs text-muted" data-testid="compare-env-error">
            {view.envError}
          </p>
        ) : view.env && view.env.changed.length + view.env.added.length + view.env.removed.length === 0 ? (
          <p className="rounded-lg border border-dashed border-border p-4 text-sm text-muted">The environments are identical.</p>
        ) : view.env ? (
          <div className="overflow-x-auto rounded-lg border border-border bg-panel">
            <Table className="w-full text-sm" data-testid="env-diff">
              <TableHeader className="border-b border-border bg-subtle/60 text-xs text-muted">
                <TableRow>
                  <TableHead className="w-20 px-3 py-2 text-left font-medium">Change</TableHead>
                  <TableHead className="px-3 py-2 text-left font-medium">Path</TableHead>
                  <TableHead className="px-3 py-2 text-left font-medium">A</TableHead>
                  <TableHead className="px-3 py-2 text-left font-medium">B</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody className="divide-y divide-border font-mono text-xs">
                {view.env.changed.map((d) => (
                  <DiffRow key={`c${d.path}`} kind="changed" path={d.path} a={jsonPreview(d.a)} b={jsonPreview(d.b)} />
                ))}
                {view.env.added.map((d) => (
                  <DiffRow key={`a${d.path}`} kind="added" path={d.path} a={NOT_RECORDED} b={jsonPreview(d.value)} />
                ))}
                {view.env.removed.map((d) => (
                  <DiffRow key={`r${d.path}`} kind="removed" path={d.path} a={jsonPreview(d.value)} b={NOT_RECORDED} />
                ))}
              </TableBody>
            </Table>
          </div>
        ) : null}
      </Section>
    </div>
  );
}

const KIND_CLASS = { changed: "text-amber-700 dark:text-pending", added: "text-green-700 dark:text-done", removed: "text-denied" } as const;

function DiffRow({ kind, path, a, b }: { kind: keyof typeof KIND_CLASS; path: string; a: string; b: string }) {
  return (
    <TableRow data-testid="env-diff-row" data-kind={kind} data-path={path}>
      <TableCell className={cn("px-3 py-1 font-sans", KIND_CLASS[kind])}>{kind}</TableCell>
      <TableCell className="px-3 py-1">{path}</TableCell>
      <TableCell className="max-w-[20rem] px-3 py-1 break-all text-muted">{a}</TableCell>
      <TableCell className="max-w-[20rem] px-3 py-1 break-all">{b}</TableCell>
    </TableRow>
  );
}

function OnlyIn({ label, names, count, testId }: { label: string; names: string[]; count: number; testId: string }) {
  return (
    <div className="rounded-lg border border-border bg-panel p-3" data-testid={testId}>
      <p className="mb-1 text-xs font-medium text-muted">
        {label} ({count.toLocaleString("en-US")}){names.length < count ? `, the first ${names.length} shown` : ""}
      </p>
      {names.length === 0 ? (
        <p className="text-xs text-muted">none</p>
      ) : (
        <ul className="flex flex-wrap gap-1">
          {names.map((n) => (
            <li key={n} className="rounded border border-border px-1.5 font-mono text-xs">
              {n}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
