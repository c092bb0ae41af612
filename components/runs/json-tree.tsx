"use client";

import { ChevronRight } from "lucide-react";
import { useMemo, useState } from "react";
import { cn } from "@/components/ui/cn";
import { defaultOpen, flattenJson, visibleNodes } from "./env-tree";
import { Button } from "@/components/ui/button";

/** A JSON document as a collapsible tree with its own search (matches keep their ancestors). */
export function JsonTree({ value, testId }: { value: unknown; testId?: string }) {
  const nodes = useMemo(() => flattenJson(value), [value]);
  const [open, setOpen] = useState<ReadonlySet<string>>(() => defaultOpen(nodes));
  const [query, setQuery] = useState("");
  const shown = useMemo(() => visibleNodes(nodes, open, query), [nodes, open, query]);
  const searching = query.trim() !== "";

  const toggle = (path: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      return next;
    });

  return (
    <div data-testid={testId} className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <input
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder="Search keys and values"
          aria-label="Search the environment"
          data-testid="env-search"
          className="h-7 w-64 max-w-full rounded-md border border-border bg-panel px-2 text-xs placeholder:text-muted focus:border-accent focus:outline-none"
        />
        <Button
          variant="ghost"
          size="bare"
          className="text-xs hover:bg-transparent"
          onClick={() => setOpen(new Set(nodes.filter((n) => n.kind !== "value").map((n) => n.path)))}
        >
          Expand all
        </Button>
        <Button variant="ghost" size="bare" className="text-xs hover:bg-transparent" onClick={() => setOpen(new Set())}>
          Collapse all
        </Button>
        <span className="ml-auto text-xs text-muted tabular">
          {searching ? `${shown.filter((n) => n.kind === "value").length} matching values` : `${nodes.length} keys`}
        </span>
      </div>
      {shown.length === 0 ? (
        <p className="py-3 text-center text-xs text-muted" data-testid="env-tree-empty">
          {searching ? `Nothing matches “${query}”.` : "The document is empty."}
        </p>
      ) : (
        <ul role="tree" className="max-h-[28rem] overflow-auto rounded-md border border-border bg-bg/40 py-1 font-mono text-xs">
          {shown.map((n) => {
            const container = n.kind !== "value";
            const isOpen = searching || open.has(n.path);
            return (
              <li
                key={n.path}
                role="treeitem"
                aria-selected={false}
                aria-expanded={container ? isOpen : undefined}
                aria-level={n.depth + 1}
                data-testid="env-node"
                data-path={n.path}
                className="flex items-baseline gap-1 px-2 leading-5 hover:bg-subtle"
                style={{ paddingLeft: `${0.5 + n.depth * 1.1}rem` }}
              >
                {container ? (
                  <Button
                    variant="plain"
                    size="bare"
                    onClick={() => toggle(n.path)}
                    className="flex items-baseline gap-1 text-left disabled:opacity-100"
                    aria-label={`${isOpen ? "Collapse" : "Expand"} ${n.path}`}
                    disabled={searching}
                  >
                    <ChevronRight size={11} aria-hidden className={cn("shrink-0 self-center text-muted transition-transform", isOpen && "rotate-90")} />
                    <span className="text-fg">{n.key}</span>
                    <span className="text-muted">{n.kind === "array" ? `[${n.childCount}]` : `{${n.childCount}}`}</span>
                  </Button>
                ) : (
                  <>
                    <span className="w-[11px] shrink-0" aria-hidden />
                    <span className="shrink-0 text-muted">{n.key}:</span>
                    <span className={cn("min-w-0 break-all", n.text === "null" ? "text-muted italic" : n.text?.startsWith('"') ? "text-fg" : "text-accent")}>
                      {n.text}
                    </span>
                  </>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
