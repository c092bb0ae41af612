"use client";

import Link from "next/link";
import { useMemo, useState } from "react";
import { EmptyState } from "@/components/ui/empty-state";
import { SearchInput } from "@/components/ui/search-input";
import type { ToolsResponse } from "@/lib/server/tools-page/tools-view";
import { BADGE_LABELS, badgeLabel, badgesOf, ToolBadge, type BadgeKind } from "./badges";
import { DiagnosticsPanel } from "./diagnostics-panel";
import { ReloadingBar, ReloadNoticeBar } from "./reload-notice";
import { TokenCostPanel } from "./token-cost-panel";
import { pluginsHint } from "./reload-text";
import { staleLabel } from "@/lib/tools/registry-json";
import { filterTools, type ToolFilter } from "./filter-tools";
import { SourcesPanel } from "./sources-panel";
import { useTools } from "./use-tools";
import { Select } from "@/components/ui/select";

const SAMPLE_README = "/docs/plugins";

export function ToolList({ initial }: { initial: ToolsResponse }) {
  const { data, isFetching, error } = useTools(initial);
  const [filter, setFilter] = useState<ToolFilter>({ query: "", sourcePackage: "", badge: "" });
  const rows = useMemo(() => filterTools(data.tools, filter), [data.tools, filter]);
  const packages = useMemo(() => [...new Set(Object.values(data.tools).map((t) => t.source_package))].sort(), [data.tools]);
  const total = Object.keys(data.tools).length;
  const pluginCount = Object.values(data.tools).filter((t) => t.origin === "plugin").length;
  const mcpCount = Object.values(data.tools).filter((t) => t.origin === "mcp").length;
  const skippedHint = pluginsHint(data);

  return (
    <div className="space-y-4">
      <ReloadingBar reloading={data.reloading} />
      <ReloadNoticeBar notice={data.reload} />
      <DiagnosticsPanel diagnostics={data.diagnostics} />
      <TokenCostPanel cost={data.cost} />
      <SourcesPanel sources={data.sources} diagnostics={data.diagnostics} onShowTools={(sourcePackage) => setFilter({ query: "", sourcePackage, badge: "" })} />
      <div className="flex flex-wrap items-center gap-2">
        <SearchInput value={filter.query} onChange={(query) => setFilter((f) => ({ ...f, query }))} placeholder="Search tools" testId="tools-search" />
        <Select
          aria-label="Filter by package"
          data-testid="filter-package"
          value={filter.sourcePackage}
          onChange={(e) => setFilter((f) => ({ ...f, sourcePackage: e.target.value }))}
        >
          <option value="">All packages</option>
          {packages.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </Select>
        <Select
          aria-label="Filter by badge"
          data-testid="filter-badge"
          value={filter.badge}
          onChange={(e) => setFilter((f) => ({ ...f, badge: e.target.value as BadgeKind | "" }))}
        >
          <option value="">All kinds</option>
          {(Object.keys(BADGE_LABELS) as BadgeKind[]).map((b) => (
            <option key={b} value={b}>
              {BADGE_LABELS[b]}
            </option>
          ))}
        </Select>
        <span className="ml-auto text-xs text-muted tabular" data-testid="tools-count">
          {rows.length === total ? `${total} tools` : `${rows.length} of ${total} tools`} · {pluginCount} from plugins
          {data.sources.length ? ` · ${mcpCount} from MCP servers` : ""}
          {isFetching ? " · refreshing…" : ""}
        </span>
      </div>
      {error ? <p className="text-sm text-denied">Could not refresh the registry: {error.message}</p> : null}

      {rows.length === 0 ? (
        <EmptyState title={total === 0 ? "No tools registered" : "No tool matches"} testId="tools-empty">
          {total === 0 ? "Install a plugin package or configure mcpServers to add tools." : "Try another search or clear the filters."}
        </EmptyState>
      ) : (
        <ul className="divide-y divide-border overflow-hidden rounded-lg border border-border bg-panel" data-testid="tool-rows">
          {rows.map((tool) => (
            <li key={tool.name} data-testid="tool-row" data-tool={tool.name}>
              {/* Narrow screens: name and badges on one line, the summary in full width under them. */}
              <Link
                href={`/tools/${encodeURIComponent(tool.name)}`}
                className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-x-4 gap-y-1 px-4 py-2.5 hover:bg-subtle focus-visible:bg-subtle lg:grid-cols-[18rem_minmax(0,1fr)_auto] lg:items-center"
              >
                <div className="min-w-0">
                  <div className="truncate font-mono text-sm font-medium">{tool.name}</div>
                  <div className="truncate font-mono text-xs text-muted" data-testid="tool-package">
                    [{tool.source_package}] {tool.version}
                  </div>
                </div>
                <div className="col-span-2 row-start-2 min-w-0 lg:col-span-1 lg:col-start-2 lg:row-start-1">
                  <p className="truncate text-sm text-muted">{tool.summary}</p>
                  {tool.stale ? (
                    <p
                      className="truncate text-xs text-amber-700 dark:text-pending"
                      data-testid="tool-stale"
                      title={tool.stale.reason}
                      suppressHydrationWarning
                    >
                      {staleLabel(tool.stale)}
                    </p>
                  ) : null}
                </div>
                <div className="col-start-2 row-start-1 flex flex-wrap justify-end gap-1 lg:col-start-3">
                  {badgesOf(tool).map((b) => (
                    <ToolBadge key={b} kind={b} label={badgeLabel(b, tool)} />
                  ))}
                </div>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {pluginCount === 0 && skippedHint ? (
        <p className="text-xs text-muted" data-testid="plugins-hint">
          {skippedHint} The{" "}
          <Link className="text-accent underline" href={SAMPLE_README}>
            plugin guide
          </Link>{" "}
          shows how a plugin is written and installed.
        </p>
      ) : null}
      {pluginCount === 0 && !skippedHint ? (
        <p className="text-xs text-muted" data-testid="plugins-hint">
          No plugin installed. Add tools with <code className="font-mono">npm install ./examples/plugins/toolroom-plugin-sample</code> or any package that
          declares <code className="font-mono">toolroom.tools</code> — see the{" "}
          <Link className="text-accent underline" href={SAMPLE_README}>
            plugin guide
          </Link>
          .
        </p>
      ) : null}
      {data.sources.length === 0 ? (
        <p className="text-xs text-muted" data-testid="mcp-hint">
          No MCP server configured. Add one under <code className="font-mono">mcpServers</code> in <code className="font-mono">toolroom.yaml</code>, as in other
          MCP clients: <code className="font-mono">{'fs: { command: npx, args: [-y, "@modelcontextprotocol/server-filesystem", "."], prefix: fs_ }'}</code>
        </p>
      ) : null}
    </div>
  );
}
