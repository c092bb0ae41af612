import { FactList, Section } from "./section";
import type { SanitizerView } from "./types";
import { VerdictBadge } from "./verdict-badge";
import { Table, TableHeader, TableBody, TableRow, TableHead, TableCell } from "@/components/ui/table";

const SEVERITY: Record<string, string> = { error: "text-denied", warning: "text-amber-700 dark:text-pending", warn: "text-amber-700 dark:text-pending" };

/** A sanitizer report: its verdict, each check, and the findings grouped as the dashboard groups them. */
export function FindingsSection({ report }: { report: SanitizerView }) {
  return (
    <Section
      title="Sanitizer report"
      testId="findings-section"
      note={`${report.total} ${report.total === 1 ? "finding" : "findings"} in ${report.groups.length} ${report.groups.length === 1 ? "group" : "groups"}`}
    >
      <div className="space-y-4 rounded-lg border border-border bg-panel p-4">
        <FactList
          facts={[
            { label: "overall_verdict", value: report.overallVerdict === null ? null : <VerdictBadge verdict={report.overallVerdict} /> },
            { label: "execution_status", value: report.executionStatus },
            { label: "target", value: report.target },
          ]}
        />
        <Table className="w-full text-sm" data-testid="sanitizer-checks">
          <TableHeader>
            <TableRow className="border-b border-border text-left text-xs text-muted">
              <TableHead className="py-1 pr-3 font-medium">Check</TableHead>
              <TableHead className="py-1 pr-3 font-medium">State</TableHead>
              <TableHead className="py-1 pr-3 font-medium">Verdict</TableHead>
              <TableHead className="py-1 pr-3 text-right font-medium">Findings</TableHead>
              <TableHead className="py-1 font-medium">Reason</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody className="divide-y divide-border">
            {report.checks.map((c, i) => (
              <TableRow key={i}>
                <TableCell className="py-1 pr-3 font-mono text-xs">{c.sanitizer ?? "–"}</TableCell>
                <TableCell className="py-1 pr-3 text-xs">{c.state ?? "–"}</TableCell>
                <TableCell className="py-1 pr-3">
                  <VerdictBadge verdict={c.verdict} />
                </TableCell>
                <TableCell className="py-1 pr-3 text-right font-mono text-xs tabular">{c.findings}</TableCell>
                <TableCell className="py-1 font-mono text-xs text-muted">{c.reason ?? "–"}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {report.groups.length === 0 ? (
          <p className="text-sm text-muted" data-testid="findings-empty">
            No findings.
          </p>
        ) : (
          <Table className="w-full text-sm" data-testid="finding-groups">
            <TableHeader>
              <TableRow className="border-b border-border text-left text-xs text-muted">
                <TableHead className="py-1 pr-3 font-medium">Sanitizer</TableHead>
                <TableHead className="py-1 pr-3 font-medium">Code</TableHead>
                <TableHead className="py-1 pr-3 font-medium">Severity</TableHead>
                <TableHead className="py-1 pr-3 text-right font-medium">Count</TableHead>
                <TableHead className="py-1 font-medium">Kernels · example</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody className="divide-y divide-border">
              {report.groups.map((g, i) => (
                <TableRow key={i} data-testid="finding-group" className="align-top">
                  <TableCell className="py-1.5 pr-3 font-mono text-xs">{g.sanitizer ?? "–"}</TableCell>
                  <TableCell className="py-1.5 pr-3 font-mono text-xs">{g.code ?? "–"}</TableCell>
                  <TableCell className={`py-1.5 pr-3 text-xs ${SEVERITY[g.severity ?? ""] ?? ""}`}>{g.severity ?? "–"}</TableCell>
                  <TableCell className="py-1.5 pr-3 text-right font-mono text-xs tabular">{g.count}</TableCell>
                  <TableCell className="py-1.5 text-xs">
                    {g.kernels.length ? (
                      <div className="truncate font-mono text-muted" title={g.kernels.join("\n")}>
                        {g.kernels.slice(0, 3).join(", ")}
                        {g.kernels.length > 3 ? ` +${g.kernels.length - 3} more` : ""}
                      </div>
                    ) : null}
                    {g.example ? <div className="line-clamp-2 break-words">{g.example}</div> : null}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </div>
    </Section>
  );
}
