"use client";

import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { CallChange } from "@/lib/evals/collection-diff";
import type { CallResult } from "@/lib/evals/collection-run";
import type { SavedCall } from "@/lib/evals/collection-schema";

const CHANGE: Record<CallChange, { tone: BadgeTone; label: string; title: string }> = {
  broke: { tone: "denied", label: "broke", title: "Passed in the run before, fails now" },
  fixed: { tone: "done", label: "fixed", title: "Failed in the run before, passes now" },
  changed: { tone: "pending", label: "output changed", title: "Same verdict as the run before, different result text" },
  same: { tone: "neutral", label: "same", title: "The same result as the run before" },
  new: { tone: "accent", label: "new", title: "The run before had no call of this name (or there was no run before)" },
};

/** What a call's verdict cell says: passed, failed, waiting for the person, running, or not run yet. */
function Verdict({ result, waiting, running }: { result: CallResult | undefined; waiting: boolean; running: boolean }) {
  if (result) {
    const refused = result.outcome === "not-admitted" ? ` · not admitted${result.decidedBy ? ` (${result.decidedBy})` : ""}` : "";
    return (
      <Badge tone={result.verdict === "pass" ? "done" : "denied"} data-testid="collection-call-verdict" data-verdict={result.verdict}>
        {result.verdict === "pass" ? "pass" : "fail"}
        {refused}
      </Badge>
    );
  }
  if (waiting) return <Badge tone="pending">waiting for your approval</Badge>;
  if (running) return <Badge tone="running">running…</Badge>;
  return <span className="text-xs text-muted">not run</span>;
}

function Details({ result }: { result: CallResult | undefined }) {
  if (!result) return null;
  if (result.failures.length)
    return (
      <ul className="space-y-1" data-testid="collection-call-failures">
        {result.failures.map((f) => (
          <li key={`${f.key}:${f.expected}`} className="grid grid-cols-[4.5rem_1fr] gap-x-2 text-xs">
            <span className="font-mono text-denied">{f.key}</span>
            <span>
              <span className="text-muted">expected </span>
              <span className="font-mono">{f.expected}</span>
              <span className="block break-all">
                <span className="text-muted">actual </span>
                <span className="font-mono">{f.actual}</span>
              </span>
            </span>
          </li>
        ))}
      </ul>
    );
  return <pre className="max-h-16 overflow-hidden font-mono text-xs break-all whitespace-pre-wrap text-muted">{result.text}</pre>;
}

export interface CallRowsProps {
  calls: SavedCall[];
  results: CallResult[];
  changes: Record<string, CallChange>;
  /** The index of the call now waiting for the person, or running. */
  waitingAt: number | null;
  runningAt: number | null;
}

/** The collection's calls with the last (or running) run's result of each, expected vs actual, and the change since the run before. */
export function CallRows({ calls, results, changes, waitingAt, runningAt }: CallRowsProps) {
  const byName = new Map(results.map((r) => [r.name, r]));
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead className="w-40">Call</TableHead>
          <TableHead className="w-44">Tool</TableHead>
          <TableHead className="w-48">Result</TableHead>
          <TableHead>Expected vs actual</TableHead>
          <TableHead className="w-28">Since last run</TableHead>
          <TableHead numeric className="w-16">
            ms
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {calls.map((call, i) => {
          const result = byName.get(call.name);
          const change = result ? changes[call.name] : undefined;
          return (
            <TableRow key={call.name} data-testid="collection-call" data-call={call.name}>
              <TableCell className="align-top font-mono text-xs">{call.name}</TableCell>
              <TableCell className="align-top font-mono text-xs text-muted">{call.tool}</TableCell>
              <TableCell className="align-top">
                <Verdict result={result} waiting={waitingAt === i} running={runningAt === i} />
              </TableCell>
              <TableCell className="align-top">
                <Details result={result} />
              </TableCell>
              <TableCell className="align-top">
                {change ? (
                  <Badge tone={CHANGE[change].tone} title={CHANGE[change].title} data-testid="collection-call-change">
                    {CHANGE[change].label}
                  </Badge>
                ) : null}
              </TableCell>
              <TableCell numeric className="align-top font-mono text-xs tabular">
                {result && result.outcome === "ran" ? result.durationMs : ""}
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
