"use client";

import { useQuery } from "@tanstack/react-query";
import type { ToolsResponse } from "@/lib/app/tools-view";

export function useTools(initial: ToolsResponse) {
  return useQuery({
    queryKey: ["tools"],
    queryFn: async (): Promise<ToolsResponse> => {
      const response = await fetch("/api/tools");
      if (!response.ok) throw new Error(`GET /api/tools failed: ${response.status}`);
      return (await response.json()) as ToolsResponse;
    },
    initialData: initial,
  });
}
