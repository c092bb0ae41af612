import type { ToolJson } from "@/lib/tools/registry-json";
import { badgesOf, type BadgeKind } from "./badges";

export interface ToolFilter {
  query: string;
  sourcePackage: string;
  badge: BadgeKind | "";
}

export type ToolRow = ToolJson & { name: string; summary: string };

/** Search matches name, package and description; filters narrow by package and badge. */
export function filterTools(tools: Record<string, ToolJson>, filter: ToolFilter): ToolRow[] {
  const q = filter.query.trim().toLowerCase();
  return Object.entries(tools)
    .map(([name, tool]) => ({ ...tool, name, summary: tool.description.split("\n", 1)[0] ?? "" }))
    .filter((tool) => !filter.sourcePackage || tool.source_package === filter.sourcePackage)
    .filter((tool) => !filter.badge || badgesOf(tool).includes(filter.badge))
    .filter((tool) => !q || `${tool.name}\n${tool.source_package}\n${tool.description}`.toLowerCase().includes(q));
}
