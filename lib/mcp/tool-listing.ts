import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Registry, RegisteredTool } from "@/lib/tools/registry-types";

/** A tool name as people read it: `list_files` → "List files". */
export function titleOf(name: string): string {
  const words = name.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * How a registry tool looks to an MCP client. `readonly` is the one fact the registry has about
 * side effects, so it drives both hints; a tool that only asks for confirmation on some inputs
 * is still destructive (it changes state when it runs).
 */
export function mcpToolOf(tool: RegisteredTool): Tool {
  return {
    name: tool.name,
    title: titleOf(tool.name),
    description: tool.description,
    // `$schema` stays: a client validates with the dialect the tool wrote (conformance json-schema-2020-12).
    inputSchema: { ...(tool.schemaDialect ? { $schema: tool.schemaDialect } : {}), ...tool.inputSchema, type: "object" },
    annotations: {
      title: titleOf(tool.name),
      readOnlyHint: tool.readonly,
      destructiveHint: !tool.readonly,
    },
    _meta: { "toolroom/source": tool.sourcePackage, "toolroom/version": tool.version, "toolroom/requiresConfirmation": tool.requiresConfirmation },
  };
}

/** Disabled tools are never offered to a model, and an MCP client is one more caller of that kind. */
export function listMcpTools(registry: Registry): Tool[] {
  return registry.tools.filter((t) => t.enabled).map(mcpToolOf);
}
