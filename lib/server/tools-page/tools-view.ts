import type { Diagnostic, Registry, SourceStatus } from "@/lib/tools/registry-types";
import { registryJson, type ToolJson } from "@/lib/tools/registry-json";

/** `GET /api/tools`: the registry JSON plus the skipped entries and the MCP servers. */
export interface ToolsResponse {
  tools: Record<string, ToolJson>;
  diagnostics: Diagnostic[];
  disabledPackages: string[];
  sources: SourceStatus[];
}

export function toolsResponse(registry: Registry): ToolsResponse {
  return { tools: registryJson(registry), diagnostics: registry.diagnostics, disabledPackages: registry.disabledPackages, sources: registry.sources ?? [] };
}
