import { z } from "zod";
import { createModelResolver } from "@/lib/chat/models";
import type { TurnFor } from "@/lib/evals/runner";
import { settingsRuleDecider } from "@/lib/server/approvals/settings-rules";
import { evalTurnFor } from "@/lib/server/evals/evaluate";
import type { Settings } from "@/lib/settings/schema";
import type { Registry, RegisteredTool } from "@/lib/tools/registry-types";
import type { ToolDefinition } from "@/lib/tools/types";

/** A registry of plain tool definitions, as a plugin would give them, for runner tests. */
export function registryOf(definitions: ToolDefinition[]): Registry {
  const tools: RegisteredTool[] = definitions.map((tool) => ({
    name: tool.name,
    sourcePackage: "eval-test",
    version: "0.0.0",
    origin: "plugin",
    packageDir: "/",
    entry: { file: "test.js", exportName: tool.name },
    description: tool.description,
    summary: tool.description.split("\n")[0] ?? "",
    readonly: tool.readonly ?? true,
    requiresConfirmation: tool.confirm !== undefined,
    inputSchema: z.toJSONSchema(tool.input as z.ZodType),
    enabled: true,
    resolve: () => tool,
  }));
  const byName = new Map(tools.map((t) => [t.name, t]));
  return { tools, diagnostics: [], disabledPackages: [], get: (name) => byName.get(name) };
}

/** The turn of each runner trial as `toolroom eval` builds it (settings' rules deciding first). */
export function evalTurns(settings: Settings): TurnFor {
  return evalTurnFor(settings, createModelResolver(settings), () => settingsRuleDecider(settings));
}
