"use client";

import { ArrowDownLeft, ArrowUpRight, RefreshCw } from "lucide-react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { RpcEntry } from "@/lib/mcp/client-log";
import { outcomeLabel, rpcState } from "./rpc-outcome";

const LEVEL_TONE: Record<string, BadgeTone> = { debug: "neutral", info: "accent", notice: "accent", warning: "pending" };

function logMessage(entry: RpcEntry): { level: string; logger?: string; data: string } | null {
  if (entry.method !== "notifications/message") return null;
  try {
    const params = (JSON.parse(entry.payload) as { params?: { level?: string; logger?: string; data?: unknown } }).params ?? {};
    return {
      level: params.level ?? "info",
      ...(params.logger ? { logger: params.logger } : {}),
      data: typeof params.data === "string" ? params.data : JSON.stringify(params.data),
    };
  } catch {
    return null;
  }
}

/** Toolroom's own line between the messages: a reconnect and why, a subscription not sent again. */
function EventLine({ entry }: { entry: RpcEntry }) {
  return (
    <li data-testid="rpc-entry" data-method={entry.method} data-state="event" className="flex items-center gap-2 bg-pending/10 px-2 py-1">
      <span className="w-20 shrink-0 text-muted tabular-nums">{new Date(entry.at).toLocaleTimeString()}</span>
      <RefreshCw size={12} aria-hidden className="shrink-0 text-amber-700 dark:text-pending" />
      <span className="font-sans text-fg" data-testid="rpc-event">
        {entry.payload}
      </span>
    </li>
  );
}

/** A server's JSON-RPC traffic, newest first: requests with their answer and duration, notifications, the server's log messages. */
export function RpcLog({ entries }: { entries: RpcEntry[] }) {
  if (!entries.length) return <p className="p-4 text-sm text-muted">No traffic yet: requests to and from this server show here as they happen.</p>;
  return (
    <ol className="divide-y divide-border font-mono text-xs" data-testid="rpc-log">
      {entries.map((entry) => {
        if (entry.kind === "event") return <EventLine key={entry.seq} entry={entry} />;
        const log = logMessage(entry);
        const state = rpcState(entry);
        return (
          <li key={entry.seq} data-testid="rpc-entry" data-method={entry.method} data-state={state}>
            <details className="group">
              <summary className="flex cursor-pointer items-center gap-2 px-2 py-1 hover:bg-subtle">
                <span className="w-20 shrink-0 text-muted tabular-nums">{new Date(entry.at).toLocaleTimeString()}</span>
                {entry.direction === "out" ? (
                  <ArrowUpRight size={12} aria-label="sent" className="shrink-0 text-accent" />
                ) : (
                  <ArrowDownLeft size={12} aria-label="received" className="shrink-0 text-violet-600 dark:text-violet-400" />
                )}
                <span className="truncate">{entry.method}</span>
                {entry.id !== undefined ? <span className="text-muted">#{entry.id}</span> : null}
                {log ? (
                  <>
                    <Badge tone={LEVEL_TONE[log.level] ?? "denied"}>{log.level}</Badge>
                    <span className="truncate font-sans text-fg" data-testid="rpc-log-message">
                      {log.logger ? `${log.logger}: ` : ""}
                      {log.data}
                    </span>
                  </>
                ) : null}
                <span className="ml-auto shrink-0 tabular-nums" data-testid="rpc-duration">
                  {state === "pending" ? (
                    <span className="text-running">waiting…</span>
                  ) : entry.response ? (
                    <span className={entry.response.ok ? "text-done" : entry.response.closed === "cancelled" ? "text-muted" : "text-denied"}>
                      {outcomeLabel(entry.response)}
                      {entry.response.durationMs} ms
                    </span>
                  ) : null}
                </span>
              </summary>
              <div className="space-y-1 bg-subtle px-2 py-1">
                <pre className="break-all whitespace-pre-wrap">{entry.payload}</pre>
                {entry.response ? <pre className="border-t border-border pt-1 break-all whitespace-pre-wrap">{entry.response.payload}</pre> : null}
              </div>
            </details>
          </li>
        );
      })}
    </ol>
  );
}
