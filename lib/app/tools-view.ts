import type { Diagnostic, Registry } from "@/lib/tools/registry-types";
import { registryJson, type ToolJson } from "@/lib/tools/registry-json";

/** `GET /api/tools`: the registry JSON plus the skipped entries. */
export interface ToolsResponse {
  tools: Record<string, ToolJson>;
  diagnostics: Diagnostic[];
  disabledPackages: string[];
}

export function toolsResponse(registry: Registry): ToolsResponse {
  return { tools: registryJson(registry), diagnostics: registry.diagnostics, disabledPackages: registry.disabledPackages };
}
