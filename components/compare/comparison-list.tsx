import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { ComparisonSummaryJson } from "@/lib/server/compare/compare-service";
import { columnLetter } from "./column-letter";

/** Every stored comparison, newest first; each reopens at /compare/<id>. */
export function ComparisonList({ comparisons }: { comparisons: ComparisonSummaryJson[] }) {
  if (comparisons.length === 0)
    return (
      <EmptyState title="No comparisons yet" testId="compare-empty">
        Open a chat and press “Compare…” to send one prompt to several models and tool modes side by side, or “Replay in…” to run a stored chat again.
      </EmptyState>
    );
  return (
    <div className="overflow-x-auto rounded-lg border border-border bg-panel">
      <Table data-testid="compare-list">
        <TableHeader>
          <TableRow>
            <TableHead>Prompt</TableHead>
            <TableHead>Columns</TableHead>
            <TableHead numeric>Created (UTC)</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {comparisons.map((c) => (
            <TableRow key={c.id} data-testid="compare-list-row">
              <TableCell className="max-w-md">
                <Link href={`/compare/${c.id}`} className="block truncate text-accent hover:underline">
                  {c.prompts[0]}
                </Link>
                {c.prompts.length > 1 ? (
                  <span className="text-xs text-muted">and {c.prompts.length === 2 ? "1 more message" : `${c.prompts.length - 1} more messages`}</span>
                ) : null}
                {c.sourceChatId ? <span className="ml-1 text-xs text-muted">(replay)</span> : null}
              </TableCell>
              <TableCell className="font-mono text-xs">
                {c.columns.map((col) => (
                  <div key={col.chatId}>
                    {columnLetter(col.position)} · {col.label}
                  </div>
                ))}
              </TableCell>
              <TableCell numeric className="whitespace-nowrap">
                {new Date(c.createdAt).toISOString().replace("T", " ").slice(0, 16)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
