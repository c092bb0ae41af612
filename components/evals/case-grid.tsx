"use client";

import { useState } from "react";
import { cn } from "@/components/ui/cn";
import { Section } from "@/components/runs/section";
import { Tag } from "@/components/runs/verdict-badge";
import type { EvalRunView, GridEntry } from "@/components/runs/types";
import { CaseDiffPanel } from "./case-diff-panel";
import { costText, rate, tokensPerTrial } from "./eval-format";

const TONE: Record<GridEntry["state"], string> = {
  pass: "bg-done/15 text-green-800 dark:text-done",
  fail: "bg-denied/15 text-denied",
  flaky: "bg-pending/20 text-amber-800 dark:text-pending",
};

/** Cases down, cells (model × mode × protocol) across; each square is passes over trials and opens the case's diff. */
export function CaseGrid({ view, root, path }: { view: EvalRunView; root: string | null; path: string }) {
  const [open, setOpen] = useState<{ case: string; cell: string } | null>(null);
  const flaky = new Set(view.flakyCases);
  return (
    <Section
      title="Cases"
      testId="case-grid-section"
      note={`${view.cases.length} cases × ${view.columns.length} cells · click a square for expected vs actual calls`}
    >
      <div className="overflow-x-auto rounded-lg border border-border bg-panel">
        <table className="w-full border-collapse text-xs" data-testid="case-grid">
          <thead>
            <tr className="border-b border-border align-bottom">
              <th scope="col" className="px-3 py-2 text-left font-medium text-muted">
                case
              </th>
              {view.columns.map((c, j) => (
                <th key={c.name} scope="col" className="px-2 py-2 text-right font-mono font-normal" data-testid="grid-column">
                  <div className="font-medium">{c.name}</div>
                  <div className="text-muted" title="trials passed">
                    {rate(c.passRate)} pass
                  </div>
                  <div className="text-muted" title={`pass@${c.k}: at least one of ${c.k} trials passes; pass^${c.k}: all ${c.k} pass (averaged over cases)`}>
                    pass@{c.k} {rate(c.passAtK)} · pass^{c.k} {rate(c.passHatK)}
                  </div>
                  <div className="text-muted" data-testid="column-tokens" title="input / output tokens per trial, from the provider's usage">
                    {tokensPerTrial(c.tokens)}
                  </div>
                  {view.costs ? (
                    <div className="text-muted" data-testid="column-cost" title="from llms.<name>.pricing">
                      {view.costs[j] ? costText(view.costs[j]) : null}
                    </div>
                  ) : null}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {view.cases.map((name, i) => (
              <tr key={name} className="border-b border-border/60 last:border-0" data-testid="grid-row" data-case={name}>
                <th scope="row" className="px-3 py-1.5 text-left font-mono font-normal">
                  <span className="mr-2">{name}</span>
                  {flaky.has(name) ? (
                    <Tag tone="warn" testId="flaky-tag" title="passed in some trials and failed in others">
                      flaky
                    </Tag>
                  ) : null}
                </th>
                {view.columns.map((c, j) => {
                  const e = view.entries[i]?.[j] ?? null;
                  const selected = open?.case === name && open.cell === c.name;
                  return (
                    <td key={c.name} className="px-2 py-1 text-right">
                      {e ? (
                        <button
                          type="button"
                          data-testid="grid-square"
                          data-state={e.state}
                          aria-pressed={selected}
                          aria-label={`${name} in ${c.name}: ${e.passed} of ${e.trials} trials passed (${e.state})`}
                          onClick={() => setOpen(selected ? null : { case: name, cell: c.name })}
                          className={cn(
                            "min-w-12 rounded px-2 py-0.5 font-mono tabular-nums focus-visible:ring-2 focus-visible:ring-accent focus-visible:outline-none",
                            TONE[e.state],
                            selected && "ring-2 ring-accent",
                          )}
                        >
                          {e.passed}/{e.trials}
                        </button>
                      ) : (
                        <span className="text-muted" title="did not run (partial run)">
                          –
                        </span>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {open ? <CaseDiffPanel root={root} path={path} caseName={open.case} cell={open.cell} onClose={() => setOpen(null)} /> : null}
    </Section>
  );
}
