import { modelResolverFor } from "@/lib/chat/models";
import type { McpAudit } from "@/lib/mcp/audit";
import type { McpServeOptions } from "@/lib/mcp/server";
import { runsRootOf, sourceRootOf } from "@/lib/settings";
import type { Settings } from "@/lib/settings/schema";
import type { Registry } from "@/lib/tools/registry-types";
import { toolroomPackage } from "@/lib/server/tools-page/package-info";
import { createToolContext } from "@/lib/server/runtime/tool-context";
import { settingsRuleDecider } from "@/lib/server/approvals/settings-rules";

/**
 * What both MCP transports (stdio and HTTP) serve: this registry, with chat's settings. `current`,
 * when given, is read at every call (the web server's settings after a live reload: a session lives
 * up to an hour); `settings` is what the session started with.
 */
export function mcpServeOptions(
  registry: Registry,
  settings: Settings,
  audit?: McpAudit,
  log?: (message: string) => void,
  current: () => Settings = () => settings,
): McpServeOptions {
  return {
    registry,
    serverInfo: { name: "toolroom", version: toolroomPackage().version },
    roots: { sourceRoot: sourceRootOf(settings), runsRoot: runsRootOf(settings) },
    approvalTimeoutSeconds: settings.chat.approvalTimeoutSeconds,
    guardFile: settings.aiAssistedGuardFile,
    // The settings' rules; the web server adds the rules saved from its UI (mcp-http.ts).
    rules: (call) => settingsRuleDecider(current())(call),
    audit,
    log,
    contextFor: (toolName, signal) => {
      const settings = current();
      const resolver = modelResolverFor(settings);
      return createToolContext({
        settings,
        toolName,
        // The driving model is the client's, which MCP does not tell us.
        modelId: "mcp-client",
        signal,
        llm: (forTool, name) => resolver.resolve(settings.tools[forTool]?.llm ?? (name ? { type: "ref", ref: name } : settings.chat.llm)),
      });
    },
  };
}
