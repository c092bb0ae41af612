import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type ElicitRequestFormParams,
} from "@modelcontextprotocol/sdk/types.js";
import { randomUUID } from "node:crypto";
import type { Registry, RegisteredTool } from "@/lib/tools/registry-types";
import type { RuleDecider } from "@/lib/tools/approval-rules";
import type { ToolContext } from "@/lib/tools/types";
import type { ElicitationRecord, McpAudit } from "./audit";
import type { ResourceRoots } from "./builtin-resources";
import { callTool, type ConfirmAnswer } from "./call";
import { completePromptArgument, getPrompt, listPrompts } from "./prompts";
import { completeResourceArgument, listResources, listResourceTemplates, readResource } from "./resources";
import { callChannel, type LogLevelSetting } from "./tool-channel";
import { listMcpTools } from "./tool-listing";

export interface McpServeOptions {
  registry: Registry;
  /** Calls back with each new registry a live reload makes; returns the unsubscribe. */
  watchRegistry?: (onChange: (registry: Registry) => void) => () => void;
  /** What the built-in resources read: the run artifacts and the source root. */
  roots: ResourceRoots;
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

const MAX_COMPLETIONS = 100;

const INSTRUCTIONS = `Toolroom's tool registry: built-in tools over a source tree and run artifacts, plus installed plugin tools.
Resources: run artifacts (toolroom://runs/…), source files (toolroom://source/…) and plugin resources; prompts come from plugins.
Results starting "Error:" are failed calls; results starting "Not run:" were not admitted by a person.`;

/** One MCP server per connection (a stdio process or one streamable-HTTP session). */
export function createMcpServer(options: McpServeOptions): Server {
  const server = new Server(
    { name: options.serverInfo.name, title: "Toolroom", version: options.serverInfo.version },
    {
      capabilities: {
        tools: { listChanged: true },
        logging: {},
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        completions: {},
      },
      instructions: INSTRUCTIONS,
    },
  );
  const sessionKey = randomUUID();
  let registry = options.registry;
  const logLevel: LogLevelSetting = { level: "info" };
  const subscribed = new Set<string>();
  const roots = options.roots;
  const contributionContext = (signal: AbortSignal) => ({ signal, sourceRoot: roots.sourceRoot, runsRoot: roots.runsRoot });
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
      // The client's notifications/cancelled aborts the request, which the SDK rejects much as a timeout.
      if (signal.aborted) return "aborted";
      if (error instanceof McpError && error.code === Number(ErrorCode.RequestTimeout)) return "timeout";
      // A client that says it can elicit but fails to: nobody was asked, so nobody said yes or no.
      options.log?.(`toolroom mcp: asking the client to confirm ${tool.name} failed: ${(error as Error).message}`);
      return "failed";
    }
  };

  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    logLevel.level = request.params.level;
    return {};
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listMcpTools(registry) }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const elicitations: ElicitationRecord[] = [];
    const channel = callChannel({
      server,
      extra,
      toolName: request.params.name,
      progressToken: request.params._meta?.progressToken,
      logLevel,
      timeoutMs: options.approvalTimeoutSeconds * 1000,
      elicitations,
      log: options.log,
    });
    return callTool(
      {
        registry,
        contextFor: (name, signal) => ({ ...options.contextFor(name, signal), ...channel }),
        elicitations: () => elicitations,
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
    );
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => listResources(registry, roots));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => listResourceTemplates(registry));
  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) => readResource(registry, request.params.uri, contributionContext(extra.signal)));
  server.setRequestHandler(SubscribeRequestSchema, (request) => {
    subscribed.add(request.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  server.setRequestHandler(ListPromptsRequestSchema, () => listPrompts(registry));
  server.setRequestHandler(GetPromptRequestSchema, (request, extra) =>
    getPrompt(registry, request.params.name, request.params.arguments ?? {}, contributionContext(extra.signal)),
  );
  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { ref, argument, context } = request.params;
    const given = context?.arguments ?? {};
    const values =
      ref.type === "ref/prompt"
        ? await completePromptArgument(registry, ref.name, argument.name, argument.value, given)
        : await completeResourceArgument(registry, ref.uri, argument.name, argument.value, given, roots);
    return { completion: { values: values.slice(0, MAX_COMPLETIONS), total: values.length, hasMore: values.length > MAX_COMPLETIONS } };
  });

  // A live reload may change every list and any plugin resource: say so, then serve the new registry.
  const unwatch = options.watchRegistry?.((next) => {
    registry = next;
    const notify = (send: () => Promise<void>) => send().catch((error: Error) => options.log?.(`toolroom mcp: a change notification failed: ${error.message}`));
    void notify(() => server.sendToolListChanged());
    void notify(() => server.sendPromptListChanged());
    void notify(() => server.sendResourceListChanged());
    for (const uri of subscribed) void notify(() => server.sendResourceUpdated({ uri }));
  });
  const closed = server.onclose;
  server.onclose = () => {
    unwatch?.();
    closed?.();
  };
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
