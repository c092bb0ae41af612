import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type ElicitRequestFormParams } from "@modelcontextprotocol/sdk/types.js";
import { randomUUID } from "node:crypto";
import type { Registry, RegisteredTool } from "@/lib/tools/registry-types";
import type { RuleDecider } from "@/lib/tools/approval-rules";
import type { ToolContext } from "@/lib/tools/types";
import type { McpAudit } from "./audit";
import { callTool, type ConfirmAnswer } from "./call";
import { listMcpTools } from "./tool-listing";

export interface McpServeOptions {
  registry: Registry;
  serverInfo: { name: string; version: string };
  contextFor: (toolName: string, signal: AbortSignal) => ToolContext;
  /** Seconds the client's person has to answer a confirmation (chat.approvalTimeoutSeconds). */
  approvalTimeoutSeconds: number;
  /** Approval rules: they decide before the client is asked (allow: not asked; deny: refused). */
  rules?: RuleDecider;
  guardFile?: string;
  audit?: McpAudit;
  log?: (message: string) => void;
}

const INSTRUCTIONS = `Toolroom's tool registry: built-in tools over a source tree and run artifacts, plus installed plugin tools.
Results starting "Error:" are failed calls; results starting "Not run:" were not admitted by a person.`;

/** One MCP server per connection (a stdio process or one streamable-HTTP session). */
export function createMcpServer(options: McpServeOptions): Server {
  const server = new Server(
    { name: options.serverInfo.name, title: "Toolroom", version: options.serverInfo.version },
    { capabilities: { tools: {}, logging: {} }, instructions: INSTRUCTIONS },
  );
  const sessionKey = randomUUID();
  const client = () => {
    const info = server.getClientVersion();
    return info ? `${info.name} ${info.version}` : "unknown client";
  };

  const confirm = async (tool: RegisteredTool, input: unknown, signal: AbortSignal, requestId: string | number): Promise<ConfirmAnswer> => {
    if (!server.getClientCapabilities()?.elicitation) return "unsupported";
    try {
      const result = await server.elicitInput(confirmationRequest(tool, input), {
        signal,
        timeout: options.approvalTimeoutSeconds * 1000,
        // Over HTTP the question must travel on the stream of the call it belongs to.
        relatedRequestId: requestId,
      });
      return result.action;
    } catch (error) {
      if (error instanceof McpError && error.code === Number(ErrorCode.RequestTimeout)) return "timeout";
      // A client that says it can elicit but fails to: nobody said yes.
      options.log?.(`toolroom mcp: asking the client to confirm ${tool.name} failed: ${(error as Error).message}`);
      return "cancel";
    }
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listMcpTools(options.registry) }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    callTool(
      {
        registry: options.registry,
        contextFor: options.contextFor,
        confirm: (tool, input, signal) => confirm(tool, input, signal, extra.requestId),
        rules: options.rules,
        guardFile: options.guardFile,
        audit: options.audit,
        client,
        sessionKey,
        log: options.log,
      },
      request.params.name,
      request.params.arguments,
      extra.signal,
    ),
  );
  return server;
}

/** The question a client shows its person: no fields to fill, only accept or decline. */
export function confirmationRequest(tool: RegisteredTool, input: unknown): ElicitRequestFormParams {
  return {
    mode: "form",
    message: `Toolroom: run ${tool.name} [${tool.sourcePackage}]${tool.readonly ? "" : " (changes files or state)"}?\n${tool.summary}\nArguments: ${JSON.stringify(input, null, 2)}`,
    requestedSchema: { type: "object", properties: {} },
  };
}
