"use client";

import { useMemo, useState } from "react";
import type { SettingRow } from "@/lib/settings/rows";
import { SearchInput } from "@/components/ui/search-input";
import { Table, TableHeader, TableBody, TableRow, TableHead, TableCell } from "@/components/ui/table";

export function SettingsTable({ rows }: { rows: SettingRow[] }) {
  const [query, setQuery] = useState("");
  const shown = useMemo(() => {
    const q = query.toLowerCase();
    return q ? rows.filter((r) => `${r.key} ${r.value} ${r.source}`.toLowerCase().includes(q)) : rows;
  }, [rows, query]);
  return (
    <div className="space-y-3">
      <SearchInput value={query} onChange={setQuery} placeholder="Filter settings" testId="settings-search" />
      <div className="overflow-x-auto rounded-lg border border-border bg-panel">
        <Table className="w-full text-sm" data-testid="settings-table">
          <TableHeader className="bg-subtle text-left text-xs text-muted">
            <TableRow>
              <TableHead className="px-3 py-2 font-medium">Key</TableHead>
              <TableHead className="px-3 py-2 font-medium">Value</TableHead>
              <TableHead className="px-3 py-2 font-medium">Source</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {shown.map((row) => (
              <TableRow key={row.key} className="align-top" data-testid="settings-row">
                <TableCell className="px-3 py-1.5 font-mono text-xs">
                  {row.key}
                  {row.help ? (
                    <p className="mt-1 max-w-md font-sans text-[11px] leading-snug text-muted" data-testid="settings-help">
                      {row.help}
                    </p>
                  ) : null}
                </TableCell>
                <TableCell className="px-3 py-1.5 font-mono text-xs break-all">{row.value}</TableCell>
                <TableCell className={row.source === "defaults" ? "px-3 py-1.5 text-xs text-muted" : "px-3 py-1.5 font-mono text-xs text-accent"}>
                  {row.source}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {shown.length === 0 ? <p className="p-4 text-sm text-muted">No setting matches “{query}”.</p> : null}
      </div>
    </div>
  );
}
