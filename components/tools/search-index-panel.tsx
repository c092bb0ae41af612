"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { RefreshCw } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { fetchJson } from "@/lib/client/fetch-json";
import { queryKeys } from "@/lib/client/query-keys";
import type { SearchIndexView } from "@/lib/server/search-index/search-index";

const EXAMPLE = `llms:
  embedder: { provider: openai-compatible, baseURL: http://127.0.0.1:11434/v1, model: nomic-embed-text }
search:
  embeddings: { type: ref, ref: embedder }`;

/** The embedding index behind a search tool: which model, how much is embedded, and a way to build it. */
export function SearchIndexPanel({ tool }: { tool: string }) {
  const queryClient = useQueryClient();
  const key = queryKeys.tools.searchIndex(tool);
  const { data, error, isPending } = useQuery({
    queryKey: key,
    queryFn: () => fetchJson<SearchIndexView>(`/api/tools/${tool}/index`),
    // Polled only while a build runs.
    refetchInterval: (query) => (query.state.data?.building ? 1000 : false),
  });
  const build = useMutation({
    mutationFn: () => fetchJson<SearchIndexView>(`/api/tools/${tool}/index`, { method: "POST" }),
    onSuccess: (view) => queryClient.setQueryData(key, view),
  });

  if (isPending) return <Skeleton className="h-16" />;
  if (error) return <p className="text-sm text-denied">Could not read the index: {error.message}</p>;

  if (!data.model) {
    return (
      <div className="space-y-2 text-sm" data-testid="search-index">
        <p>
          {data.problem ? <span className="text-denied">search.embeddings cannot be used: {data.problem}. </span> : <>BM25 only: settings </>}
          <code className="font-mono">search.embeddings</code> names no embedding model, so this tool ranks by words alone. To search by meaning as well, add an
          embedding model (OpenAI, or an OpenAI-compatible server such as Ollama):
        </p>
        <pre className="overflow-auto rounded-md border border-border bg-subtle p-3 font-mono text-xs">{EXAMPLE}</pre>
      </div>
    );
  }

  const status = data.status;
  const percent = status && status.docs > 0 ? Math.round((status.embedded / status.docs) * 100) : 0;
  return (
    <div className="space-y-2 text-sm" data-testid="search-index">
      <p>
        Hybrid: BM25 + embeddings from <span className="font-mono">{data.model}</span>.
      </p>
      {status ? (
        <>
          <div
            className="h-1.5 overflow-hidden rounded bg-subtle"
            role="progressbar"
            aria-valuenow={percent}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-label="Embedded"
          >
            <div className={status.building ? "h-full bg-running" : "h-full bg-done"} style={{ width: `${percent}%` }} />
          </div>
          <p className="text-xs text-muted tabular-nums" data-testid="search-index-counts">
            {status.embedded.toLocaleString()} of {status.docs.toLocaleString()} {tool === "search_code" ? "chunks" : "documents"} embedded
            {status.building ? " — building…" : status.builtAt ? ` — built ${new Date(status.builtAt).toLocaleTimeString()}` : ""}
            {status.capped ? `; ${status.capped.toLocaleString()} left out by search.maxEmbedChunks` : ""}
          </p>
          {status.error ? <p className="text-xs text-denied">The last build stopped: {status.error}. Building again resumes where it stopped.</p> : null}
        </>
      ) : (
        <p className="text-xs text-muted">{data.building ? "Building…" : "Not built in this server yet: the first search builds it, or build it now."}</p>
      )}
      {data.lastError ? <p className="text-xs text-denied">{data.lastError}</p> : null}
      {build.error ? <p className="text-xs text-denied">{build.error.message}</p> : null}
      <Button size="sm" className="gap-1" disabled={data.building || build.isPending} onClick={() => build.mutate()} data-testid="build-index">
        <RefreshCw size={12} aria-hidden /> {status ? "Refresh index" : "Build index"}
      </Button>
    </div>
  );
}
