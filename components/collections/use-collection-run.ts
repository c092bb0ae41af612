"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import { fetchJson } from "@/lib/client/fetch-json";
import { queryKeys } from "@/lib/client/query-keys";
import type { ApprovalNeeded, CollectionOverview, CollectionRunView, StepReply } from "@/lib/server/collections/collection-runs";

export type { ApprovalNeeded, CollectionOverview, CollectionRunView };

export interface CollectionsResponse {
  collections: CollectionOverview[];
}

/** Every collection from GET /api/collections (refreshed after each run). */
export function useCollections(initial: CollectionsResponse) {
  return useQuery({ queryKey: queryKeys.collections.all, queryFn: () => fetchJson<CollectionsResponse>("/api/collections"), initialData: initial });
}

export interface RunState {
  run: CollectionRunView | null;
  /** The call waiting for the person: the approval dialog shows it. */
  approval: ApprovalNeeded | null;
  busy: boolean;
  error: string | null;
}

const IDLE: RunState = { run: null, approval: null, busy: false, error: null };

/**
 * One collection's run from the page: start it, then one step a call until it ends. A call that
 * needs a person stops the loop on the approval; the decision goes with the next step (try-it's
 * approval, checked by the server), and the loop goes on.
 */
export function useCollectionRun(key: string) {
  const client = useQueryClient();
  const [state, setState] = useState<RunState>(IDLE);
  const stopped = useRef(false);

  const loop = useCallback(
    async (run: CollectionRunView, decision?: { approvalId: string; decision: "approve" | "deny"; reason?: string; editedInput?: unknown }) => {
      let current = run;
      let body: Record<string, unknown> = decision ?? {};
      try {
        while (current.state === "running" && !stopped.current) {
          const reply = await fetchJson<StepReply>(`/api/collections/runs/${encodeURIComponent(current.id)}/step`, { method: "POST", json: body });
          current = reply.run;
          body = {};
          if (reply.approval) {
            setState({ run: current, approval: reply.approval, busy: false, error: null });
            return;
          }
          setState((s) => ({ ...s, run: current }));
        }
        setState({ run: current, approval: null, busy: false, error: null });
      } catch (error) {
        setState((s) => ({ ...s, run: current, approval: null, busy: false, error: (error as Error).message }));
      }
      await client.invalidateQueries({ queryKey: queryKeys.collections.all });
    },
    [client],
  );

  const start = useCallback(
    async (vars: Record<string, string>) => {
      stopped.current = false;
      setState({ ...IDLE, busy: true });
      try {
        const { run } = await fetchJson<{ run: CollectionRunView }>("/api/collections/runs", { method: "POST", json: { key, vars } });
        setState({ ...IDLE, busy: true, run });
        await loop(run);
      } catch (error) {
        setState({ ...IDLE, error: (error as Error).message });
      }
    },
    [key, loop],
  );

  const decide = useCallback(
    async (decision: "approve" | "deny", options: { reason?: string; editedInput?: unknown } = {}) => {
      const { run, approval } = state;
      if (!run || !approval) return;
      setState((s) => ({ ...s, approval: null, busy: true }));
      await loop(run, {
        approvalId: approval.approvalId,
        decision,
        ...(options.reason ? { reason: options.reason } : {}),
        ...(options.editedInput !== undefined ? { editedInput: options.editedInput } : {}),
      });
    },
    [state, loop],
  );

  const stop = useCallback(async () => {
    stopped.current = true;
    const run = state.run;
    if (!run || run.state !== "running") return;
    try {
      const { run: ended } = await fetchJson<{ run: CollectionRunView }>(`/api/collections/runs/${encodeURIComponent(run.id)}/stop`, { method: "POST" });
      setState({ ...IDLE, run: ended });
    } catch (error) {
      setState((s) => ({ ...s, error: (error as Error).message }));
    }
    await client.invalidateQueries({ queryKey: queryKeys.collections.all });
  }, [state.run, client]);

  return { state, start, decide, stop };
}
