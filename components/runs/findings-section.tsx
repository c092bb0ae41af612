import { FactList, Section } from "./section";
import type { SanitizerView } from "./types";
import { VerdictBadge } from "./verdict-badge";

const SEVERITY: Record<string, string> = { error: "text-denied", warning: "text-amber-700 dark:text-pending", warn: "text-amber-700 dark:text-pending" };

/** A sanitizer report: its verdict, each check, and the findings grouped as the dashboard groups them. */
export function FindingsSection({ report }: { report: SanitizerView }) {
  return (
    <Section title="Sanitizer report" testId="findings-section" note={`${report.total} ${report.total === 1 ? "finding" : "findings"} in ${report.groups.length} ${report.groups.length === 1 ? "group" : "groups"}`}>
      <div className="space-y-4 rounded-lg border border-border bg-panel p-4">
        <FactList
          facts={[
            { label: "overall_verdict", value: report.overallVerdict === null ? null : <VerdictBadge verdict={report.overallVerdict} /> },
            { label: "execution_status", value: report.executionStatus },
            { label: "target", value: report.target },
          ]}
        />
        <table className="w-full text-sm" data-testid="sanitizer-checks">
          <thead>
            <tr className="border-b border-border text-left text-xs text-muted">
              <th className="py-1 pr-3 font-medium">Check</th>
              <th className="py-1 pr-3 font-medium">State</th>
              <th className="py-1 pr-3 font-medium">Verdict</th>
              <th className="py-1 pr-3 text-right font-medium">Findings</th>
              <th className="py-1 font-medium">Reason</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {report.checks.map((c, i) => (
              <tr key={i}>
                <td className="py-1 pr-3 font-mono text-xs">{c.sanitizer ?? "–"}</td>
                <td className="py-1 pr-3 text-xs">{c.state ?? "–"}</td>
                <td className="py-1 pr-3">
                  <VerdictBadge verdict={c.verdict} />
                </td>
                <td className="py-1 pr-3 text-right font-mono text-xs tabular">{c.findings}</td>
                <td className="py-1 font-mono text-xs text-muted">{c.reason ?? "–"}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {report.groups.length === 0 ? (
          <p className="text-sm text-muted" data-testid="findings-empty">
            No findings.
          </p>
        ) : (
          <table className="w-full text-sm" data-testid="finding-groups">
            <thead>
              <tr className="border-b border-border text-left text-xs text-muted">
                <th className="py-1 pr-3 font-medium">Sanitizer</th>
                <th className="py-1 pr-3 font-medium">Code</th>
                <th className="py-1 pr-3 font-medium">Severity</th>
                <th className="py-1 pr-3 text-right font-medium">Count</th>
                <th className="py-1 font-medium">Kernels · example</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {report.groups.map((g, i) => (
                <tr key={i} data-testid="finding-group" className="align-top">
                  <td className="py-1.5 pr-3 font-mono text-xs">{g.sanitizer ?? "–"}</td>
                  <td className="py-1.5 pr-3 font-mono text-xs">{g.code ?? "–"}</td>
                  <td className={`py-1.5 pr-3 text-xs ${SEVERITY[g.severity ?? ""] ?? ""}`}>{g.severity ?? "–"}</td>
                  <td className="py-1.5 pr-3 text-right font-mono text-xs tabular">{g.count}</td>
                  <td className="py-1.5 text-xs">
                    {g.kernels.length ? (
                      <div className="truncate font-mono text-muted" title={g.kernels.join("\n")}>
                        {g.kernels.slice(0, 3).join(", ")}
                        {g.kernels.length > 3 ? ` +${g.kernels.length - 3} more` : ""}
                      </div>
                    ) : null}
                    {g.example ? <div className="line-clamp-2 break-words">{g.example}</div> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </Section>
  );
}
