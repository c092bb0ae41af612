"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { fetchJson } from "@/lib/client/fetch-json";
import { queryKeys } from "@/lib/client/query-keys";
import type { ReloadNotice } from "@/lib/server/runtime/reload-diff";

const POLL_MS = 3000;

/**
 * When the server reloads plugins or settings, every open page shows the new state: server
 * components render again (the chat's model picker, the footer, Settings) and the tool list and
 * the Sources view's servers are fetched again. A cheap poll of the last reload's time, only while the page is visible.
 */
export function useLiveReload(): void {
  const router = useRouter();
  const client = useQueryClient();
  const { data } = useQuery({
    queryKey: queryKeys.reload(),
    queryFn: () => fetchJson<{ reload: ReloadNotice | null }>("/api/reload"),
    refetchInterval: POLL_MS,
    staleTime: 0,
  });
  const seen = useRef<string | null | undefined>(undefined);
  const at = data ? (data.reload?.at ?? null) : undefined;
  useEffect(() => {
    if (at === undefined) return;
    // The first answer is the state this page was rendered with; only later ones are news.
    if (seen.current !== undefined && seen.current !== at) {
      router.refresh();
      void client.invalidateQueries({ queryKey: queryKeys.tools.all });
      // The Sources view's servers are the registry's: a reload may start, stop or sign them out.
      void client.invalidateQueries({ queryKey: queryKeys.sources.all });
    }
    seen.current = at;
  }, [at, router, client]);
}

/** Mounted once in the shell. */
export function LiveReload(): null {
  useLiveReload();
  return null;
}
