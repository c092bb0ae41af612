"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "@/lib/client/fetch-json";
import { queryKeys } from "@/lib/client/query-keys";
import type { EvalRunStatus, TrialWorkers } from "@/lib/server/evals/eval-runs";
import type { SuiteListing } from "@/lib/server/evals/suites";

export type { EvalRunStatus, SuiteListing };

export interface EvalsResponse {
  suites: SuiteListing[];
  runs: EvalRunStatus[];
  /** Who takes queued trials, on a team's PostgreSQL store; null on SQLite (evals run in this process). */
  workers: TrialWorkers | null;
}

export interface StartEval {
  suite: string;
  modes?: ("native" | "text")[];
  /** "all": the sweep, native and every text protocol. */
  protocols?: "all";
  trials?: number;
}

/** How often the page asks while an eval runs; idle, it does not poll at all. */
const POLL_MS = 700;

/** An action on one eval: cancel (while it runs), resume or open as a partial run (interrupted or cancelled). */
export type EvalAction = "cancel" | "resume" | "partial";

/** Suites and evals from GET /api/evals, polled while one runs; `start` posts a new one, `act` acts on one. */
export function useEvals(initial: EvalsResponse) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.evals.all,
    queryFn: () => fetchJson<EvalsResponse>("/api/evals"),
    initialData: initial,
    refetchInterval: (q) => (q.state.data?.runs.some((r) => r.state === "running") ? POLL_MS : false),
  });
  const start = useMutation({
    mutationFn: (body: StartEval) => fetchJson<{ run: EvalRunStatus }>("/api/evals", { method: "POST", json: body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.evals.all }),
  });
  const act = useMutation({
    mutationFn: ({ id, action }: { id: string; action: EvalAction }) =>
      fetchJson<{ run: EvalRunStatus }>(`/api/evals/${encodeURIComponent(id)}/${action}`, { method: "POST" }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.evals.all }),
  });
  return { ...query, start, act };
}
