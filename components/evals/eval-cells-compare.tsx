import { cn } from "@/components/ui/cn";
import { rateTone, TONE_CLASS } from "@/components/runs/diff-tone";
import { pct, signed } from "@/components/runs/format";
import type { EvalCellDelta } from "@/components/runs/types";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { tokensPerTrial } from "./eval-format";

const TH = "px-3 py-2 text-right font-medium";
const TD = "px-3 py-1.5 text-right font-mono text-xs tabular";
const FIGURES = ["Pass A", "Pass B", "Δ pass", "Trials A", "Trials B", "Tokens / trial A", "Tokens / trial B"];

/** A pass rate that fell is worse: the failure-rate tone of the opposite change. */
export const passTone = (delta: number | null) => rateTone(delta === null ? null : -delta);

/** Two eval runs' common cells in eval figures: pass rate, trials and tokens a trial, each side, and the pass rate's change. */
export function EvalCellsCompare({ cells }: { cells: EvalCellDelta[] }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-border bg-panel">
      <Table className="w-full text-sm" data-testid="compare-table">
        <TableHeader className="border-b border-border bg-subtle/60 text-xs text-muted">
          <TableRow>
            <TableHead className="px-3 py-2 text-left font-medium">Cell</TableHead>
            {FIGURES.map((label) => (
              <TableHead key={label} className={TH}>
                {label}
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody className="divide-y divide-border">
          {cells.map((c) => {
            const tone = passTone(c.passRateDelta);
            return (
              <TableRow key={c.name} data-testid="compare-row" data-cell={c.name}>
                <TableCell className="px-3 py-1.5 font-mono text-xs">{c.name}</TableCell>
                <TableCell className={TD} title={`${c.a.passed} of ${c.a.trials} trials passed`}>
                  {pct(c.a.passRate)}
                </TableCell>
                <TableCell className={TD} title={`${c.b.passed} of ${c.b.trials} trials passed`}>
                  {pct(c.b.passRate)}
                </TableCell>
                <TableCell className={cn(TD, "font-medium", TONE_CLASS[tone])} data-testid="delta-pass" data-tone={tone}>
                  {signed(c.passRateDelta, "pp")}
                </TableCell>
                <TableCell className={TD}>{c.a.trials}</TableCell>
                <TableCell className={TD}>{c.b.trials}</TableCell>
                <TableCell className={TD}>{tokensPerTrial(c.a.tokens)}</TableCell>
                <TableCell className={TD}>{tokensPerTrial(c.b.tokens)}</TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}
