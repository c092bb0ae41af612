"use client";

import { useQuery, type QueryClient } from "@tanstack/react-query";
import { fetchJson } from "@/lib/client/fetch-json";
import { queryKeys } from "@/lib/client/query-keys";
import type { OAuthStatusView } from "@/lib/server/mcp-oauth/sign-in";

/** One remote server's sign-in state and last flow, shared by the status badge and the debug view. */
export function useOAuthStatus(server: string) {
  return useQuery({
    queryKey: queryKeys.mcpOAuth(server),
    queryFn: () => fetchJson<OAuthStatusView>(`/api/mcp-oauth/${encodeURIComponent(server)}`),
  });
}

/**
 * A sign-in or sign-out reloads the registry: besides the sign-in state, the server's Sources
 * detail (connected or not, its sections) and the tools it brings are new.
 */
export function refreshAfterSignChange(client: QueryClient, server: string): Promise<unknown> {
  return Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.mcpOAuth(server) }),
    client.invalidateQueries({ queryKey: queryKeys.sources.all }),
    client.invalidateQueries({ queryKey: queryKeys.tools.all }),
  ]);
}
