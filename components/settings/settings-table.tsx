"use client";

import { useMemo, useState } from "react";
import type { SettingRow } from "@/lib/settings/rows";
import { SearchInput } from "@/components/ui/search-input";

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
        <table className="w-full text-sm" data-testid="settings-table">
          <thead className="bg-subtle text-left text-xs text-muted">
            <tr>
              <th className="px-3 py-2 font-medium">Key</th>
              <th className="px-3 py-2 font-medium">Value</th>
              <th className="px-3 py-2 font-medium">Source</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <tr key={row.key} className="border-t border-border align-top" data-testid="settings-row">
                <td className="px-3 py-1.5 font-mono text-xs">{row.key}</td>
                <td className="px-3 py-1.5 font-mono text-xs break-all">{row.value}</td>
                <td className={row.source === "defaults" ? "px-3 py-1.5 text-xs text-muted" : "px-3 py-1.5 font-mono text-xs text-accent"}>{row.source}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {shown.length === 0 ? <p className="p-4 text-sm text-muted">No setting matches “{query}”.</p> : null}
      </div>
    </div>
  );
}
