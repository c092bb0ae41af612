"use client";

import { useQuery } from "@tanstack/react-query";
import { fetchJson } from "@/lib/client/fetch-json";
import type { OAuthStatusView } from "@/lib/server/mcp-oauth/sign-in";

/** One remote server's sign-in state and last flow, shared by the status badge and the debug view. */
export function useOAuthStatus(server: string) {
  return useQuery({
    queryKey: ["mcp-oauth", server],
    queryFn: () => fetchJson<OAuthStatusView>(`/api/mcp-oauth/${encodeURIComponent(server)}`),
  });
}
