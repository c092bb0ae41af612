"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { PendingElicitation } from "@/lib/server/elicitations/pending";
import type { ElicitationAnswer } from "./elicitation-dialog";

/** How often the page asks whether a running tool has a question: the tool waits meanwhile. */
const POLL_MS = 700;

/**
 * The questions running tools put to this page (`scope`: a chat id or `try-it:<id>`), polled
 * while `active` (a call runs), and the answer sent back for the server to check.
 */
export function useElicitations(scope: string | null, active: boolean) {
  const queryClient = useQueryClient();
  const key = ["elicitations", scope];
  const query = useQuery({
    queryKey: key,
    enabled: scope !== null && active,
    refetchInterval: POLL_MS,
    queryFn: async (): Promise<PendingElicitation[]> => {
      const response = await fetch(`/api/elicitations?scope=${encodeURIComponent(scope ?? "")}`);
      if (!response.ok) return [];
      return ((await response.json()) as { pending: PendingElicitation[] }).pending;
    },
  });
  const [busy, setBusy] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string> | undefined>();
  const request = (active && query.data?.[0]) || null;

  const answer = async (value: ElicitationAnswer) => {
    if (!request || !scope) return;
    setBusy(true);
    try {
      const response = await fetch(`/api/elicitations/${encodeURIComponent(request.id)}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ scope, ...value }),
      });
      const body = (await response.json().catch(() => ({}))) as { errors?: Record<string, string> };
      setServerErrors(response.status === 422 ? body.errors : undefined);
      await queryClient.invalidateQueries({ queryKey: key });
    } finally {
      setBusy(false);
    }
  };
  return { request, busy, serverErrors, answer };
}
