import Link from "next/link";
import { runHref } from "./filter-runs";
import { Section } from "./section";
import type { RunRow } from "./types";
import { VerdictBadge } from "./verdict-badge";

/** Runs inside this folder (a dashboard run's guardrail cases). */
export function ChildRuns({ runs, override }: { runs: RunRow[]; override: string | null }) {
  if (runs.length === 0) return null;
  return (
    <Section title="Cases in this run" testId="child-runs">
      <ul className="divide-y divide-border rounded-lg border border-border bg-panel">
        {runs.map((r) => (
          <li key={r.rel} className="flex items-center gap-3 px-3 py-1.5">
            <VerdictBadge verdict={r.verdict} />
            <Link href={runHref(r.rel, override)} className="font-mono text-xs hover:text-accent hover:underline" data-testid="child-run-link">
              {r.case ?? r.rel}
            </Link>
            <span className="ml-auto text-xs text-muted tabular">{r.findings !== null ? `${r.findings} findings` : r.kind}</span>
          </li>
        ))}
      </ul>
    </Section>
  );
}
