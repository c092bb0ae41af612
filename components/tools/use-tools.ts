"use client";

import { useQuery } from "@tanstack/react-query";
import type { ToolsResponse } from "@/lib/server/tools-page/tools-view";
import { fetchJson } from "@/lib/client/fetch-json";
import { queryKeys } from "@/lib/client/query-keys";

export function useTools(initial: ToolsResponse) {
  return useQuery({
    queryKey: queryKeys.tools.list(),
    queryFn: () => fetchJson<ToolsResponse>("/api/tools"),
    initialData: initial,
  });
}
