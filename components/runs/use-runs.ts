"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { FetchError, fetchJson } from "@/lib/client/fetch-json";
import { queryKeys } from "@/lib/client/query-keys";
import type { RunListResponse } from "./types";

export function runsUrl(override: string | null, fresh = false): string {
  const q = new URLSearchParams();
  if (override) q.set("root", override);
  if (fresh) q.set("fresh", "1");
  const s = q.toString();
  return s ? `/api/runs?${s}` : "/api/runs";
}

async function fetchRuns(override: string | null, fresh: boolean): Promise<RunListResponse> {
  try {
    return await fetchJson<RunListResponse>(runsUrl(override, fresh));
  } catch (error) {
    // A 400 for a bad override still carries the list shape with its rootError.
    const body = error instanceof FetchError ? (error.body as RunListResponse | undefined) : undefined;
    if (body && Array.isArray(body.runs)) return body;
    throw error;
  }
}

/**
 * The runs table, server-rendered first and refreshed through GET /api/runs. `refresh` walks the
 * root again (skipping the discovery cache) for when files changed without a folder mtime change.
 */
export function useRuns(initial: RunListResponse) {
  const client = useQueryClient();
  const key = queryKeys.runs.list(initial.override);
  const query = useQuery({ queryKey: key, queryFn: () => fetchRuns(initial.override, false), initialData: initial });
  const refresh = useMutation({
    mutationFn: () => fetchRuns(initial.override, true),
    onSuccess: (data) => client.setQueryData(key, data),
  });
  return { ...query, refresh: refresh.mutate, refreshing: refresh.isPending || query.isFetching, refreshError: refresh.error };
}
