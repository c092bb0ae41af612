import { FactList, Section } from "@/components/runs/section";
import { Tag } from "@/components/runs/verdict-badge";
import { when } from "@/components/runs/format";
import type { EvalRunView, RunView } from "@/components/runs/types";
import { costText, rate } from "./eval-format";

/** An eval run's header in eval vocabulary: suite, cells, cases, trials, pass rate and cost. */
export function EvalRunSummary({ view, run }: { view: EvalRunView; run: RunView }) {
  const facts = [
    { label: "suite", value: view.suite },
    { label: "pass rate", value: view.trialsRun ? `${rate(view.passed / view.trialsRun)} · ${view.passed} of ${view.trialsRun} trials` : null },
    { label: "cells", value: String(view.columns.length) },
    { label: "cases", value: `${view.cases.length}${view.flakyCases.length ? ` · ${view.flakyCases.length} flaky` : ""}` },
    {
      label: "trials",
      value: view.partial ? (
        <>
          {view.trialsRun} of {view.trialsTotal ?? "?"}{" "}
          <Tag tone="warn" testId="eval-partial">
            partial
          </Tag>
        </>
      ) : (
        String(view.trialsRun)
      ),
    },
    { label: "when (UTC)", value: run.row.when ? when(run.row.when) : null },
    {
      label: "cost",
      value: view.totalCost
        ? `${costText(view.totalCost)}${view.totalCost.usd === null && view.totalCost.unknown === "no pricing" ? " (llms.<name>.pricing)" : ""}`
        : null,
    },
  ];
  return (
    <div className="rounded-lg border border-border bg-panel p-4" data-testid="eval-summary">
      <FactList facts={facts} columns testId="eval-facts" />
    </div>
  );
}

/** The sweep's answer: per model the (mode, protocol) with the best pass rate (ties: fewer tokens, then the configured one; an exact tie is said), and the line to paste. */
export function Recommendations({ view }: { view: EvalRunView }) {
  if (!view.recommendations.length) return null;
  return (
    <Section
      title="Recommendation"
      testId="recommendation-section"
      note="best pass rate per model; ties go to fewer tokens a trial, then to the model's configured mode"
    >
      <div className="space-y-2 rounded-lg border border-border bg-panel p-4">
        <ul className="space-y-1 text-sm">
          {view.recommendations.map((r) => (
            <li key={r.model} data-testid="recommendation" data-model={r.model}>
              <span className="font-mono">{r.model}</span>: {r.mode === "text" ? `text mode, ${r.protocol ?? "its"} protocol` : "native tool calling"} —{" "}
              {rate(r.passRate)} of trials passed
              {r.of > 1 ? ` (best of ${r.of} cells)` : " (the only cell run: sweep with --protocols all to compare)"}
              {r.configured ? ", already its configured mode" : ""}
              {r.tiedWith.length > 0 && (
                <span className="text-muted" data-testid="recommendation-tie">
                  {" "}
                  — a tie with {r.tiedWith.join(", ")} (same pass rate and tokens a trial):{" "}
                  {r.tieBreak === "configured" ? "the model's configured one is kept" : "the first in the matrix is shown"}
                </span>
              )}
            </li>
          ))}
        </ul>
        <p className="text-xs text-muted">Paste into your settings (merge the keys into each model&apos;s existing llms entry):</p>
        <pre className="overflow-x-auto rounded bg-subtle p-2 font-mono text-xs" data-testid="recommendation-lines">
          {view.recommendations.map((r) => r.line).join("\n")}
        </pre>
      </div>
    </Section>
  );
}
