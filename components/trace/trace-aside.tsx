"use client";

import { useQuery } from "@tanstack/react-query";
import { Activity, X } from "lucide-react";
import { useEffect, useState, useSyncExternalStore } from "react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { FetchError, fetchJson } from "@/lib/client/fetch-json";
import { queryKeys } from "@/lib/client/query-keys";
import type { ChatTrace, TraceStepView } from "@/lib/trace/view";
import { RawView } from "./raw-view";
import { StepDetail } from "./step-detail";
import { TurnTimeline } from "./trace-timeline";

const noSubscribe = () => () => {};

export interface TraceAsideProps {
  chatId: string;
  exists: boolean;
  /** Changes when a turn ends, so an open panel reads the new steps. */
  version: string;
}

/** The trace beside the chat: a button that opens a panel of turns, steps and, for a chosen step, its detail and raw exchange. */
export function TraceAside({ chatId, exists, version }: TraceAsideProps) {
  const [toggled, setOpen] = useState<boolean | null>(null);
  // A link to a chat's trace (an eval trial's, from the run page) ends in #trace: it opens open.
  const fromLink = useSyncExternalStore(
    noSubscribe,
    () => window.location.hash === "#trace",
    () => false,
  );
  const open = toggled ?? fromLink;
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const query = useQuery({
    queryKey: queryKeys.chats.trace(chatId),
    queryFn: async () => {
      try {
        return await fetchJson<ChatTrace>(`/api/chats/${chatId}/trace`);
      } catch (error) {
        // The chat is not stored yet (its first turn has not reached the server).
        if (error instanceof FetchError && error.status === 404) return { turns: [] };
        throw error;
      }
    },
    enabled: open && exists,
  });
  const { refetch } = query;
  useEffect(() => {
    if (open && exists) void refetch();
  }, [open, exists, version, refetch]);

  if (!open) {
    return (
      <Button
        variant="ghost"
        size="bare"
        data-testid="trace-toggle"
        aria-expanded={false}
        aria-controls="trace-panel"
        onClick={() => setOpen(true)}
        className="flex w-7 shrink-0 flex-col items-center gap-1 border-l border-border bg-panel py-3 text-[11px] [writing-mode:vertical-rl]"
      >
        <Activity size={13} aria-hidden className="rotate-90" /> Trace
      </Button>
    );
  }

  const turns = query.data?.turns ?? [];
  const keyOf = (step: TraceStepView) => `${step.turnId}:${step.stepNumber}`;
  const selected = turns.flatMap((t) => t.steps).find((s) => keyOf(s) === selectedKey);

  return (
    <aside
      id="trace-panel"
      aria-label="Trace"
      data-testid="trace-panel"
      className="flex w-[26rem] max-w-[45vw] shrink-0 flex-col border-l border-border bg-panel"
    >
      <header className="flex items-center justify-between border-b border-border px-3 py-2">
        <h2 className="flex items-center gap-1.5 text-sm font-semibold">
          <Activity size={14} aria-hidden /> Trace
        </h2>
        <div className="flex items-center gap-3 text-[11px] text-muted">
          <span className="flex items-center gap-1">
            <i className="inline-block size-2 rounded-sm bg-running" /> model
          </span>
          <span className="flex items-center gap-1">
            <i className="inline-block size-2 rounded-sm bg-pending" /> waiting
          </span>
          <span className="flex items-center gap-1">
            <i className="inline-block size-2 rounded-sm bg-done" /> tool
          </span>
          <Button variant="ghost" size="icon" aria-label="Close the trace" data-testid="trace-close" onClick={() => setOpen(false)} autoFocus>
            <X size={14} />
          </Button>
        </div>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {query.isPending && exists ? (
          <div className="flex flex-col gap-2 p-3">
            <Skeleton className="h-14" />
            <Skeleton className="h-14" />
          </div>
        ) : query.isError ? (
          <p role="alert" className="m-3 text-xs text-denied">
            Could not load the trace: {query.error.message}
          </p>
        ) : turns.length === 0 ? (
          <div className="p-3">
            <EmptyState title="No turns traced yet" testId="trace-empty">
              Send a message: each step of the answer appears here with its timings, tokens and tool calls.
            </EmptyState>
          </div>
        ) : (
          turns.map((turn, i) => <TurnTimeline key={turn.turnId} turn={turn} index={i} selected={selected} onSelect={(step) => setSelectedKey(keyOf(step))} />)
        )}
        {selected ? (
          <Tabs defaultValue="detail" className="border-t border-border px-3 py-2">
            <TabsList aria-label="Step view" className="mb-2">
              <TabsTrigger value="detail" data-testid="tab-detail">
                Detail
              </TabsTrigger>
              <TabsTrigger value="raw" data-testid="tab-raw">
                Raw
              </TabsTrigger>
            </TabsList>
            <TabsContent value="detail">
              <StepDetail step={selected} />
            </TabsContent>
            <TabsContent value="raw">
              <RawView step={selected} />
            </TabsContent>
          </Tabs>
        ) : turns.length ? (
          <p className="px-3 py-2 text-[11px] text-muted">Choose a step to see its detail and the raw exchange.</p>
        ) : null}
      </div>
    </aside>
  );
}
