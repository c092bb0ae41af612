"use client";

import { useQuery } from "@tanstack/react-query";
import { Square } from "lucide-react";
import { createContext, useContext, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { fetchJson } from "@/lib/client/fetch-json";
import { queryKeys } from "@/lib/client/query-keys";
import type { RunningCall } from "@/lib/server/chat/running-calls";

/** How often a running card reads its call's progress (one request for all the chat's cards). */
const POLL_MS = 1_000;

/** The chat a tool card belongs to: its running call is looked up there. */
export const ChatIdContext = createContext<string | null>(null);

function elapsed(since: string, now: number): string {
  const seconds = Math.max(0, Math.floor((now - Date.parse(since)) / 1000));
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** Progress (n of total, the tool's message), elapsed time and Cancel for a call while it runs. */
export function RunningCallStatus({ toolCallId }: { toolCallId: string }) {
  const chatId = useContext(ChatIdContext);
  const [cancelling, setCancelling] = useState(false);
  const query = useQuery({
    queryKey: queryKeys.chats.running(chatId ?? ""),
    queryFn: () => fetchJson<{ calls: RunningCall[] }>(`/api/chats/${chatId}/running`),
    enabled: chatId !== null,
    refetchInterval: POLL_MS,
  });
  const call = query.data?.calls.find((c) => c.toolCallId === toolCallId);
  if (!chatId || !call) return null;
  const fraction = call.total ? Math.min(1, (call.progress ?? 0) / call.total) : undefined;
  const cancel = async () => {
    setCancelling(true);
    try {
      await fetchJson(`/api/chats/${chatId}/running/${encodeURIComponent(toolCallId)}`, { method: "DELETE" });
    } catch (error) {
      toast.error((error as Error).message);
      setCancelling(false);
    }
  };
  return (
    <div className="flex items-center gap-2 border-t border-border px-3 py-1.5 text-xs" data-testid="tool-call-running">
      <div className="min-w-0 flex-1">
        {call.progress !== undefined ? (
          <>
            <div className="flex items-baseline gap-2">
              <span className="text-running tabular-nums" data-testid="tool-call-progress">
                {call.progress}
                {call.total ? ` / ${call.total}` : ""}
              </span>
              {call.message ? <span className="truncate text-muted">{call.message}</span> : null}
            </div>
            {fraction !== undefined ? (
              <div className="mt-1 h-1 rounded bg-subtle" role="progressbar" aria-valuemin={0} aria-valuemax={call.total} aria-valuenow={call.progress}>
                <div className="h-1 rounded bg-running" style={{ width: `${Math.round(fraction * 100)}%` }} />
              </div>
            ) : null}
          </>
        ) : (
          <span className="text-muted">running, no progress reported</span>
        )}
      </div>
      <span className="text-running tabular-nums" data-testid="tool-call-elapsed">
        {elapsed(call.startedAt, query.dataUpdatedAt || Date.parse(call.startedAt))}
      </span>
      <Button size="sm" data-testid="tool-call-cancel" disabled={cancelling} onClick={() => void cancel()}>
        <Square size={12} aria-hidden /> {cancelling ? "Cancelling…" : "Cancel"}
      </Button>
    </div>
  );
}
