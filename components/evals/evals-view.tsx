"use client";

import { RoleGate } from "@/components/auth/role-gate";
import { Play, ShieldAlert, ShieldCheck } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { estimateCost } from "@/lib/evals/cost";
import { MODE_CHOICES, type ModeChoice } from "@/lib/evals/mode-choices";
import type { SweepSize } from "@/lib/evals/sweep";
import { EvalRunRow } from "./eval-run-row";
import { TrialWorkersLine } from "./trial-workers";
import { useEvals, type EvalsResponse, type SuiteListing } from "./use-evals";

/** The cost before the run: the chosen matrix's trials per model times a per-trial token estimate, priced per model; said to be an estimate. */
function CostEstimateLine({ suite, size }: { suite: SuiteListing; size: SweepSize }) {
  const est = estimateCost(new Map(Object.entries(size.trialsPerModel)), (m) => suite.pricing[m] ?? undefined);
  const tokens = `${est.perTrial.input.toLocaleString("en-US")} in / ${est.perTrial.output.toLocaleString("en-US")} out tokens a trial`;
  return (
    <span className="block text-muted" data-testid="eval-cost-estimate" title={`An estimate: ${tokens}; the run page shows what the providers reported.`}>
      {est.usd === null
        ? "cost: no pricing (set llms.<name>.pricing)"
        : `≈ $${est.usd.toFixed(est.usd < 0.01 ? 4 : 2)} estimated (${tokens}${est.unpriced.length ? `; ${est.unpriced.join(", ")} unpriced` : ""})`}
    </span>
  );
}

/** What a suite asks for beyond reading and judging, and whether it is trusted to have it. */
function SuiteTrust({ suite }: { suite: SuiteListing }) {
  const asks = suite.asks;
  const items = asks
    ? [
        ...asks.plugins.map((p) => `loads plugin ${p}`),
        ...asks.tools.map((t) => `configures ${t.name} (${t.keys.join(", ")})`),
        ...asks.approves.map((a) => `approves ${a}`),
      ]
    : [];
  const blocked = !suite.trusted && items.length > 0;
  return (
    <div className="space-y-1 text-xs" data-testid="eval-suite-trust" data-trusted={suite.trusted} data-blocked={blocked}>
      {suite.trusted ? (
        <Badge tone="done" title="In examples/evals or matched by settings evals.trusted">
          <ShieldCheck className="mr-1 size-3" aria-hidden /> trusted
        </Badge>
      ) : (
        <Badge tone={blocked ? "pending" : "neutral"} title="From the source root: it may not load code, change tools or approve calls">
          <ShieldAlert className="mr-1 size-3" aria-hidden /> untrusted
        </Badge>
      )}
      {items.length ? (
        <ul className="list-inside list-disc font-mono text-[11px]" data-testid="eval-suite-asks">
          {items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      ) : asks ? (
        <p className="text-muted">asks for nothing beyond reading and judging</p>
      ) : null}
      {blocked ? (
        <p className="max-w-xs text-muted" data-testid="eval-suite-trust-line">
          To run it, trust it in your settings: <code className="font-mono text-fg select-all">{suite.trustLine}</code>
        </p>
      ) : null}
    </div>
  );
}

function SuiteRow({ suite, onStart, starting }: { suite: SuiteListing; onStart: (choice: ModeChoice) => void; starting: boolean }) {
  const [choice, setChoice] = useState("suite");
  const picked = MODE_CHOICES.find((c) => c.id === choice) ?? MODE_CHOICES[0]!;
  // Sized on the server by the same expansion a start runs (lib/evals/sweep.ts); absent only for a suite that cannot run.
  const size = suite.sizes[picked.id];
  const blocked = !suite.trusted && !!suite.asks && suite.asks.plugins.length + suite.asks.tools.length + suite.asks.approves.length > 0;
  return (
    <TableRow data-testid="eval-suite" data-suite={suite.name ?? suite.label}>
      <TableCell className="font-mono">{suite.name ?? "–"}</TableCell>
      <TableCell className="font-mono text-xs text-muted">{suite.label}</TableCell>
      <TableCell numeric>{suite.cases ?? "–"}</TableCell>
      <TableCell className="font-mono text-xs">
        {suite.error || !size ? (
          "–"
        ) : (
          <>
            {`${suite.models.join(", ")} × ${size.modes.join(", ")}${size.protocols > 1 ? ` (${size.protocols} text protocols)` : ""} × ${suite.trials}`}
            <span
              data-testid="eval-suite-total"
              className={size.trials > suite.maxTrials ? "block text-denied" : "block text-muted"}
              title={`A run may have at most ${suite.maxTrials.toLocaleString("en")} trials (settings evals.maxTrials)`}
            >
              = {size.cells.toLocaleString("en")} cells, {size.trials.toLocaleString("en")} trials
              {size.trials > suite.maxTrials ? `, above the limit of ${suite.maxTrials.toLocaleString("en")}` : ""}
            </span>
            <CostEstimateLine suite={suite} size={size} />
          </>
        )}
      </TableCell>
      <TableCell>{suite.error ? null : <SuiteTrust suite={suite} />}</TableCell>
      <TableCell>
        {suite.error ? (
          <p className="max-w-md font-mono text-xs whitespace-pre-wrap text-denied" data-testid="eval-suite-error">
            {suite.error}
          </p>
        ) : (
          <div className="flex items-center justify-end gap-2">
            <label className="sr-only" htmlFor={`modes-${suite.key}`}>
              Tool modes for {suite.name}
            </label>
            <select
              id={`modes-${suite.key}`}
              data-testid="eval-modes"
              value={choice}
              onChange={(e) => setChoice(e.target.value)}
              className="h-7 rounded-md border border-border bg-panel px-1.5 text-xs"
            >
              {MODE_CHOICES.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.label}
                </option>
              ))}
            </select>
            <RoleGate role="member" note="members run evals">
              <Button size="sm" variant="primary" data-testid="eval-start" disabled={starting || blocked} onClick={() => onStart(picked)}>
                <Play className="size-3.5" aria-hidden /> Run
              </Button>
            </RoleGate>
          </div>
        )}
      </TableCell>
    </TableRow>
  );
}

/** The /evals page: suites to start, and this server's evals with live progress and links to their runs. */
export function EvalsView({ initial }: { initial: EvalsResponse }) {
  const { data, start, act } = useEvals(initial);
  return (
    <div className="space-y-6 p-6">
      <section className="space-y-2" aria-labelledby="suites-heading">
        <h2 id="suites-heading" className="text-sm font-medium">
          Suites
        </h2>
        {data.suites.length === 0 ? (
          <EmptyState title="No eval suites found" testId="evals-empty">
            Add a <code className="font-mono">*.eval.yaml</code> file to the source root (see{" "}
            <code className="font-mono">examples/evals/builtins.eval.yaml</code>
            ), or run one with <code className="font-mono">toolroom eval FILE</code>.
          </EmptyState>
        ) : (
          <div className="overflow-x-auto rounded-md border border-border">
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Suite</TableHead>
                  <TableHead>File</TableHead>
                  <TableHead numeric>Cases</TableHead>
                  <TableHead>Matrix (models × modes × trials)</TableHead>
                  <TableHead>Asks for</TableHead>
                  <TableHead className="text-right">Start</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {data.suites.map((s) => (
                  <SuiteRow
                    key={s.key}
                    suite={s}
                    starting={start.isPending}
                    onStart={(c) => start.mutate({ suite: s.key, ...(c.modes ? { modes: c.modes } : {}), ...(c.protocols ? { protocols: c.protocols } : {}) })}
                  />
                ))}
              </TableBody>
            </Table>
          </div>
        )}
        {start.error ? (
          <p role="alert" className="text-sm text-denied" data-testid="eval-start-error">
            Could not start the eval: {start.error.message}
          </p>
        ) : null}
      </section>
      <section className="space-y-2" aria-labelledby="evals-heading">
        <h2 id="evals-heading" className="text-sm font-medium">
          {data.workers ? "Evals of this team" : "Evals on this server"}
        </h2>
        {data.workers ? <TrialWorkersLine workers={data.workers} /> : null}
        {act.error ? (
          <p role="alert" className="text-sm text-denied" data-testid="eval-action-error">
            {act.error.message}
          </p>
        ) : null}
        {data.runs.length === 0 ? (
          <p className="text-sm text-muted" data-testid="eval-runs-empty">
            None yet. Press Run on a suite: it runs here in the background, and its results become a run under{" "}
            <code className="font-mono">runsRoot/evals/&lt;suite&gt;/</code> in Runs.
          </p>
        ) : (
          <ul className="space-y-2" data-testid="eval-runs">
            {data.runs.map((r) => (
              <EvalRunRow key={r.id} run={r} busy={act.isPending} onAction={(action) => act.mutate({ id: r.id, action })} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
