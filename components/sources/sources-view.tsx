"use client";

import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { EmptyState } from "@/components/ui/empty-state";
import { cn } from "@/components/ui/cn";
import type { SourceSummary } from "@/lib/server/sources/sources-view";
import { SourcePanel } from "./source-panel";
import { StateBadge } from "./state-badge";

/** Every `mcpServers` entry on the left; the chosen one (`?server=`) on the right. */
export function SourcesView({ sources }: { sources: SourceSummary[] }) {
  const params = useSearchParams();
  if (sources.length === 0) {
    return (
      <EmptyState title="No MCP servers configured" testId="sources-empty">
        Add an entry under <code className="font-mono">mcpServers</code> in toolroom.yaml (a <code className="font-mono">command</code> for stdio, or a{" "}
        <code className="font-mono">url</code> for streamable HTTP); its tools, resources and prompts show here.
      </EmptyState>
    );
  }
  const selected = sources.find((s) => s.name === params.get("server")) ?? sources[0]!;
  return (
    <div className="grid gap-6 md:grid-cols-[14rem_1fr]">
      <nav aria-label="MCP servers">
        <ul className="space-y-1" data-testid="source-list">
          {sources.map((s) => (
            <li key={s.name}>
              <Link
                href={`/sources?server=${encodeURIComponent(s.name)}`}
                data-testid="source-link"
                data-source={s.name}
                aria-current={s.name === selected.name ? "page" : undefined}
                className={cn(
                  "flex items-center gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-subtle",
                  s.name === selected.name && "bg-accent-soft font-medium",
                )}
              >
                <span className="truncate font-mono">{s.name}</span>
                <span className="ml-auto">
                  <StateBadge state={s.state} />
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <SourcePanel key={selected.name} source={selected} />
    </div>
  );
}
