"use client";

import Link from "next/link";
import { useCallback, useMemo, useState } from "react";
import { summarizeColumn } from "@/lib/chat/compare-summary";
import type { ComparisonDetail } from "@/lib/server/compare/compare-service";
import type { ToolJson } from "@/lib/tools/registry-json";
import { CompareColumn, type ColumnState } from "./compare-column";
import { SummaryTable } from "./summary-table";

export interface CompareViewProps {
  comparison: ComparisonDetail;
  tools: Record<string, ToolJson>;
}

/** A comparison: its columns streaming side by side (scrolling sideways on narrow screens), then the summary. */
export function CompareView({ comparison, tools }: CompareViewProps) {
  const [states, setStates] = useState<ColumnState[]>(() => comparison.columns.map((c) => ({ messages: c.messages, busy: false, waiting: false })));
  const onState = useCallback((index: number, state: ColumnState) => setStates((all) => all.map((s, i) => (i === index ? state : s))), []);
  const packages = useMemo(() => Object.fromEntries(Object.entries(tools).map(([name, t]) => [name, t.source_package])), [tools]);
  // One approval dialog at a time: the leftmost column that waits asks first.
  const dialogColumn = states.findIndex((s) => s.waiting);
  const summaries = useMemo(
    () =>
      comparison.columns.map((c, i) => {
        const state = states[i];
        const summary = summarizeColumn(state?.messages ?? []);
        // A refused request (no stream, so no message carries it) is an error of the column too.
        if (state?.error && !summary.errors.includes(state.error)) summary.errors.push(state.error);
        return { label: c.label, summary, busy: state?.busy ?? false };
      }),
    [comparison.columns, states],
  );

  return (
    <div className="flex flex-col gap-5 p-6">
      <div className="flex flex-col gap-1">
        <div className="flex flex-wrap items-baseline gap-x-3">
          <h1 className="text-lg font-semibold tracking-tight">Comparison</h1>
          <Link href="/compare" className="text-xs text-accent hover:underline">
            all comparisons
          </Link>
          {comparison.sourceChatId ? (
            <Link href={`/chat/${comparison.sourceChatId}`} className="text-xs text-accent hover:underline" data-testid="compare-source">
              replayed from a chat
            </Link>
          ) : null}
        </div>
        <ol className="flex flex-col gap-0.5 text-sm" data-testid="compare-prompts">
          {comparison.prompts.map((prompt, i) => (
            <li key={i} className="truncate">
              {comparison.prompts.length > 1 ? <span className="mr-1 font-mono text-xs text-muted">{i + 1}.</span> : null}
              {prompt}
            </li>
          ))}
        </ol>
      </div>
      <div className="flex gap-3 overflow-x-auto pb-2" data-testid="compare-columns">
        {comparison.columns.map((column, index) => (
          <CompareColumn
            key={column.chatId}
            index={index}
            column={column}
            prompts={comparison.prompts}
            tools={tools}
            packages={packages}
            dialogTurn={dialogColumn === index}
            onState={onState}
          />
        ))}
      </div>
      <SummaryTable columns={summaries} />
    </div>
  );
}
