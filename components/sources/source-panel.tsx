"use client";

import { useQuery } from "@tanstack/react-query";
import { KeyRound, RefreshCw, RotateCcw } from "lucide-react";
import { useEffect, useRef } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { fetchJson } from "@/lib/client/fetch-json";
import { queryKeys } from "@/lib/client/query-keys";
import type { SourceActivity, SourceDetail, SourceSummary } from "@/lib/server/sources/sources-view";
import { OAuthStatus } from "./oauth-status";
import { PromptsTab } from "./prompts-tab";
import { ResourcesTab } from "./resources-tab";
import { RpcLog } from "./rpc-log";
import { SectionError } from "./section-error";
import { StateBadge } from "./state-badge";

/** How often the log and the subscriptions' updates are read while a server is shown. */
const ACTIVITY_POLL_MS = 1_500;

const CAPABILITIES = ["tools", "resources", "prompts", "completions", "logging"] as const;

/** The per-server header: name, state, what it is, and for a remote one its sign-in state. */
function SourceHeader({ source }: { source: SourceSummary }) {
  return (
    <header className="flex flex-wrap items-center gap-2 border-b border-border pb-3" data-testid="source-header">
      <h2 className="font-mono text-base font-semibold">{source.name}</h2>
      <StateBadge state={source.state} />
      {source.server ? (
        <span className="text-sm text-muted" data-testid="source-server-info">
          {source.server.title ?? source.server.name} {source.server.version}
        </span>
      ) : null}
      <span className="truncate font-mono text-xs text-muted" title={source.target}>
        {source.transport} · {source.target}
      </span>
      <div className="ml-auto flex items-center gap-2">
        {/* Only a remote (HTTP) server can be behind OAuth; a stdio one is a local process. */}
        {source.transport === "stdio" ? null : <OAuthStatus server={source.name} />}
      </div>
    </header>
  );
}

/**
 * A reload connected the server again (its entry changed, or it had failed or stopped): say so,
 * and name the subscriptions that could not be sent again. Its log goes on, with the reconnect marked.
 */
function ReconnectNotice({ reconnected, activity }: { reconnected: NonNullable<SourceSummary["reconnected"]>; activity?: SourceActivity }) {
  const lost = (activity?.subscriptions ?? []).filter((s) => s.lost);
  const restored = (activity?.subscriptions ?? []).length - lost.length;
  return (
    <div role="status" data-testid="source-reconnected" className="space-y-0.5 rounded-md border border-pending/50 bg-pending/10 px-3 py-1.5 text-sm">
      <p className="flex items-center gap-1.5">
        <RefreshCw size={13} aria-hidden className="shrink-0 text-amber-700 dark:text-pending" />
        Reconnected at {new Date(reconnected.at).toLocaleTimeString()}: {reconnected.reason}. The log goes on across it
        {restored ? `; ${restored === 1 ? "its subscription was" : `${restored} subscriptions were`} sent again` : ""}.
      </p>
      {lost.map((s) => (
        <p key={s.uri} className="pl-5 text-muted" data-testid="source-lost-subscription">
          Not subscribed again: <span className="font-mono">{s.uri}</span> ({s.lost})
        </p>
      ))}
    </div>
  );
}

/**
 * The server said its resources or prompts changed (`notifications/*_list_changed`, counted by the
 * activity poll): list them again. Its tools come with the registry's reload, as the pages hear of it.
 */
function useListAgainOnChange(changes: SourceActivity["listChanges"] | undefined, listAgain: () => unknown): void {
  const seen = useRef<string | undefined>(undefined);
  const key = changes ? `${changes.resources}/${changes.prompts}` : undefined;
  useEffect(() => {
    if (key === undefined) return;
    // The first count is what the page was listed with; only later ones are news.
    if (seen.current !== undefined && seen.current !== key) void listAgain();
    seen.current = key;
  }, [key, listAgain]);
}

export function SourcePanel({ source }: { source: SourceSummary }) {
  const detail = useQuery({
    queryKey: queryKeys.sources.detail(source.name),
    queryFn: () => fetchJson<SourceDetail>(`/api/sources/${encodeURIComponent(source.name)}`),
    retry: false,
  });
  const activity = useQuery({
    queryKey: queryKeys.sources.activity(source.name),
    queryFn: () => fetchJson<SourceActivity>(`/api/sources/${encodeURIComponent(source.name)}/activity`),
    refetchInterval: ACTIVITY_POLL_MS,
  });
  useListAgainOnChange(activity.data?.listChanges, detail.refetch);
  const shown = detail.data ?? source;
  return (
    <div className="min-w-0 space-y-4" data-testid="source-panel" data-source={source.name} data-state={shown.state}>
      <SourceHeader source={shown} />
      {shown.reconnected ? <ReconnectNotice reconnected={shown.reconnected} activity={activity.data} /> : null}
      {shown.failure ? (
        <div role="alert" data-testid="source-failure" className="space-y-1 rounded-md border border-denied/40 bg-denied/5 p-3 text-sm">
          <p className="flex items-center gap-1.5 font-medium text-denied">
            {shown.needsAuth ? <KeyRound size={14} aria-hidden /> : null}
            {shown.failure.message}
          </p>
          <p className="text-muted">{shown.failure.hint}</p>
          {shown.failure.stderr ? <pre className="max-h-40 overflow-auto rounded bg-subtle p-2 font-mono text-xs">{shown.failure.stderr}</pre> : null}
        </div>
      ) : null}
      {detail.isPending ? (
        <div className="space-y-2" data-testid="source-loading">
          <Skeleton className="h-5 w-64" />
          <Skeleton className="h-24 w-full" />
        </div>
      ) : detail.isError ? (
        <div className="flex items-center gap-2">
          <SectionError error={detail.error.message} />
          <Button size="sm" onClick={() => void detail.refetch()}>
            <RotateCcw size={13} aria-hidden /> Try again
          </Button>
        </div>
      ) : (
        <>
          {detail.data.capabilities ? (
            <p className="flex flex-wrap items-center gap-1.5 text-xs text-muted" data-testid="source-capabilities">
              Capabilities:
              {CAPABILITIES.map((c) => (
                <Badge
                  key={c}
                  tone={detail.data.capabilities?.[c] ? "done" : "neutral"}
                  className={detail.data.capabilities?.[c] ? "" : "line-through opacity-60"}
                >
                  {c}
                  {c === "resources" && detail.data.capabilities?.resources?.subscribe ? " · subscribe" : ""}
                </Badge>
              ))}
            </p>
          ) : null}
          {detail.data.instructions ? (
            <details className="text-sm">
              <summary className="cursor-pointer text-muted">Server instructions</summary>
              <pre className="mt-1 max-h-48 overflow-auto rounded bg-subtle p-2 text-xs whitespace-pre-wrap">{detail.data.instructions}</pre>
            </details>
          ) : null}
          <Tabs defaultValue={shown.state === "failed" ? "log" : "resources"}>
            <TabsList className="border-b border-border pb-1">
              <TabsTrigger value="resources" data-testid="tab-resources">
                Resources{" "}
                {detail.data.resources.ok
                  ? `(${detail.data.resources.items.length + (detail.data.templates.ok ? detail.data.templates.items.length : 0)})`
                  : ""}
              </TabsTrigger>
              <TabsTrigger value="prompts" data-testid="tab-prompts">
                Prompts {detail.data.prompts.ok ? `(${detail.data.prompts.items.length})` : ""}
              </TabsTrigger>
              <TabsTrigger value="tools" data-testid="tab-tools">
                Tools ({detail.data.tools.length})
              </TabsTrigger>
              <TabsTrigger value="log" data-testid="tab-log">
                JSON-RPC log {activity.data ? `(${activity.data.log.length})` : ""}
              </TabsTrigger>
            </TabsList>
            <TabsContent value="resources" className="pt-3">
              <ResourcesTab
                server={source.name}
                resources={detail.data.resources}
                templates={detail.data.templates}
                canSubscribe={Boolean(detail.data.capabilities?.resources?.subscribe)}
                completes={Boolean(detail.data.capabilities?.completions)}
                activity={activity.data}
              />
            </TabsContent>
            <TabsContent value="prompts" className="pt-3">
              <PromptsTab server={source.name} prompts={detail.data.prompts} completes={Boolean(detail.data.capabilities?.completions)} />
            </TabsContent>
            <TabsContent value="tools" className="pt-3">
              {detail.data.tools.length === 0 ? (
                <p className="text-sm text-muted">No tools from this server are in the registry.</p>
              ) : (
                <ul className="divide-y divide-border rounded-md border border-border" data-testid="source-tool-list">
                  {detail.data.tools.map((t) => (
                    <li key={t.name} className="flex items-baseline gap-2 px-2 py-1.5 text-sm">
                      <a href={`/tools/${encodeURIComponent(t.name)}`} className="font-mono text-accent hover:underline">
                        {t.name}
                      </a>
                      {t.readonly ? <Badge tone="done">read-only</Badge> : null}
                      <span className="truncate text-muted">{t.description}</span>
                    </li>
                  ))}
                </ul>
              )}
            </TabsContent>
            <TabsContent value="log" className="rounded-md border border-border">
              {activity.isError ? <SectionError error={activity.error.message} /> : <RpcLog entries={activity.data?.log ?? []} />}
            </TabsContent>
          </Tabs>
        </>
      )}
    </div>
  );
}
