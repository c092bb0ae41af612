import type { Diagnostic, Registry, SourceStatus } from "@/lib/tools/registry-types";
import { registryJson, type ToolJson } from "@/lib/tools/registry-json";
import type { ReloadNotice } from "@/lib/server/runtime/reload-diff";
import { getSettings } from "@/lib/settings";
import { registryCost, type RegistryCost } from "./token-cost";

/** `GET /api/tools`: the registry JSON plus the skipped entries and the MCP servers. */
export interface ToolsResponse {
  tools: Record<string, ToolJson>;
  diagnostics: Diagnostic[];
  disabledPackages: string[];
  sources: SourceStatus[];
  /** The last live reload (null before the first): the page shows what it changed, or why it failed. */
  reload: ReloadNotice | null;
  /** A reload that is running now (a slow plugin import, an MCP server starting). */
  reloading: { since: string; trigger: string[] } | null;
  /** Token estimates, and `plugins.warnAboveTools`: past it /tools warns that clients may refuse or crowd the context. */
  cost: RegistryCost & { warnAbove: number };
}

export async function toolsResponse(registry: Registry, reload: ReloadNotice | null, reloading: ToolsResponse["reloading"] = null): Promise<ToolsResponse> {
  return {
    tools: registryJson(registry),
    diagnostics: registry.diagnostics,
    disabledPackages: registry.disabledPackages,
    sources: registry.sources ?? [],
    reload,
    reloading,
    cost: { ...(await registryCost(registry)), warnAbove: getSettings().plugins.warnAboveTools },
  };
}
