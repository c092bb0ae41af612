import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { describeNotAdmitted } from "@/lib/tools/confirm";
import { jsonSchema, summaryLine } from "@/lib/tools/define";
import type { RegisteredTool } from "@/lib/tools/registry-types";
import { inputJsonSchema, validateInput } from "@/lib/tools/schema";
import type { InputSchema, ToolConfirm, ToolDefinition } from "@/lib/tools/types";
import { whyNotATool } from "@/lib/tools/validate-tool";
import type { Elicit } from "./client-connect";
import { callResultMedia, callResultText, type McpCallResult } from "./client-result";

export type ConfirmMode = "always" | "destructive" | "never";

/**
 * Whether a tool may destroy something, by the MCP spec's defaults: `readOnlyHint` is false and
 * `destructiveHint` true unless the server says otherwise, so a tool without annotations counts
 * as destructive. Annotations come from the server and are hints; erring towards asking a person
 * is the safe reading of a server that says nothing.
 */
function isDestructive(annotations: Tool["annotations"]): boolean {
  return annotations?.readOnlyHint !== true && annotations?.destructiveHint !== false;
}

function requiresConfirmation(mode: ConfirmMode, annotations: Tool["annotations"]): boolean {
  return mode === "always" || (mode === "destructive" && isDestructive(annotations));
}

export type Progress = (progress: number, total?: number, message?: string) => void;

/** What the registry needs to know about the server a tool came from. */
export interface McpToolServer {
  /** The `mcpServers` key. */
  name: string;
  version: string;
  target: string;
  location: string;
  prefix: string;
  confirm: ConfirmMode;
  /** Calls the tool by the server's own (unprefixed) name; `elicit` answers the server's questions meanwhile. */
  call(toolName: string, args: Record<string, unknown>, signal: AbortSignal, elicit?: Elicit, progress?: Progress): Promise<McpCallResult>;
}

// A schema zod cannot read still goes to the model as the server wrote it; the server checks the
// arguments itself, so here any object passes rather than the tool becoming unusable.
const ANY_OBJECT = jsonSchema({ type: "object", additionalProperties: true });

async function validationInput(schema: InputSchema): Promise<InputSchema> {
  try {
    await validateInput(schema, {});
    return schema;
  } catch {
    return ANY_OBJECT;
  }
}

/** One server tool as a registry entry, or why it cannot be one (a bad name, say). */
export async function mcpRegisteredTool(tool: Tool, server: McpToolServer): Promise<Omit<RegisteredTool, "enabled"> | { problem: string }> {
  const name = `${server.prefix}${tool.name}`;
  const description = tool.description?.trim() || tool.title || tool.annotations?.title || tool.name;
  const readonly = tool.annotations?.readOnlyHint === true;
  const confirming = requiresConfirmation(server.confirm, tool.annotations);
  let inputSchema;
  try {
    inputSchema = await inputJsonSchema(jsonSchema(tool.inputSchema));
  } catch (error) {
    return { problem: `its input schema cannot be read: ${(error as Error).message}` };
  }
  const confirm: ToolConfirm<unknown> = {
    evaluate: () => true,
    notAdmitted: (_input, why) => `Not run: the call of ${name} was ${describeNotAdmitted(why)}.`,
  };
  const definition: ToolDefinition<Record<string, unknown>> = {
    name,
    description,
    input: await validationInput(jsonSchema(inputSchema)),
    readonly,
    ...(confirming ? { confirm } : {}),
    execute: async (input, ctx) => {
      const result = await server.call(tool.name, input, ctx.signal, ctx.elicit?.bind(ctx), ctx.progress?.bind(ctx));
      // The text describes images and audio ("[image: image/png, 2.0 KB]"); the parts themselves go along as content.
      const media = callResultMedia(result);
      return media.length ? { output: callResultText(result), content: media } : callResultText(result);
    },
  };
  const problem = whyNotATool(definition);
  if (problem) return { problem: problem.replace("its `name`", `the name "${name}"`) };
  return {
    name,
    sourcePackage: `mcp:${server.name}`,
    version: server.version,
    origin: "mcp",
    packageDir: server.location,
    entry: { file: server.target, exportName: tool.name },
    description,
    summary: summaryLine(description),
    readonly,
    requiresConfirmation: confirming,
    inputSchema,
    resolve: () => definition,
  };
}
