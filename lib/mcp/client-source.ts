import { ErrorCode, McpError, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ToolSource } from "@/lib/tools/registry";
import type { Diagnostic, RegisteredTool, SourceStatus } from "@/lib/tools/registry-types";
import {
  connectMcpServer,
  isStdio,
  type Elicit,
  McpConnectError,
  targetOf,
  type ConnectOptions,
  type McpConnection,
  type McpServerSettings,
} from "./client-connect";
import { RpcLog } from "./client-log";
import { attachSession, connectedSession, failedSession } from "./client-session";
import { mcpRegisteredTool, type Progress } from "./client-tool";

/** A server with more pages than this is looping on its cursor. */
const MAX_PAGES = 100;
// The invoke timeout (and the caller's abort) bound a call; the SDK's own 60 s default would cut
// a call that `tools.<name>.timeoutSeconds` allows. This is the longest delay a timer takes.
const NO_SDK_TIMEOUT_MS = 2 ** 31 - 1;

export interface McpSourceOptions extends ConnectOptions {
  log?: (message: string) => void;
  /** How long a Sources view request (a resource read, a prompt) may take; default SOURCE_REQUEST_TIMEOUT_MS. */
  sourceRequestTimeoutMs?: number;
}

/**
 * Every configured server as a tool source, connected in parallel. A server that cannot start or
 * answer becomes a `source-failed` diagnostic with its stderr; the others are unaffected.
 * Connected servers stay up until the source is closed (the registry's lifetime).
 */
export function connectMcpSources(servers: Record<string, McpServerSettings>, options: McpSourceOptions): Promise<ToolSource[]> {
  return Promise.all(Object.entries(servers).map(([name, config]) => connectSource(name, config, options)));
}

async function connectSource(name: string, config: McpServerSettings, options: McpSourceOptions): Promise<ToolSource> {
  const log = options.log ?? ((message: string) => console.warn(message));
  const sourcePackage = `mcp:${name}`;
  const base = {
    package: sourcePackage,
    transport: isStdio(config) ? ("stdio" as const) : ("http" as const),
    target: targetOf(config),
    prefix: config.prefix ?? "",
  };
  let connected: { connection: McpConnection; result: Tool[] };
  const rpcLog = new RpcLog();
  try {
    connected = await connectMcpServer(name, config, { ...options, rpcLog }, (connection) => listAllTools(connection));
  } catch (error) {
    const failure = error instanceof McpConnectError ? error : new McpConnectError(String(error), "Report this: the MCP client failed unexpectedly.", "");
    const diagnostic: Diagnostic = {
      kind: "source-failed",
      package: sourcePackage,
      entry: base.target,
      message: failure.message,
      hint: failure.hint,
      ...(failure.stderr ? { stderr: failure.stderr } : {}),
    };
    log(`toolroom: MCP server "${name}" (${base.target}) failed: ${failure.message}${failure.stderr ? `\n${failure.stderr}` : ""}`);
    const status: SourceStatus = { ...base, state: "failed", toolCount: 0 };
    attachSession(status, failedSession(name, rpcLog, { message: failure.message, hint: failure.hint }));
    return { tools: [], diagnostics: [diagnostic], status };
  }

  const { connection, result: listed } = connected;
  const info = connection.client.getServerVersion();
  const version = info?.version ?? "unknown";
  let closing = false;
  let gone = false;
  connection.client.onclose = () => {
    gone = true;
    // Closing on purpose (the registry's close) sets `closing` first; anything else is the server leaving.
    if (!closing) log(`toolroom: MCP server "${name}" stopped; its tools now fail.${connection.stderr.text() ? `\n${connection.stderr.text()}` : ""}`);
  };
  const server = {
    name,
    version,
    target: base.target,
    location: connection.location,
    prefix: base.prefix,
    confirm: config.confirm,
    call: async (toolName: string, args: Record<string, unknown>, signal: AbortSignal, elicit?: Elicit, progress?: Progress) => {
      const stopped = () => new Error(`the MCP server "${name}" has stopped; restart Toolroom to start it again`);
      if (gone) throw stopped();
      // With onprogress the SDK sends a progressToken; an abort sends notifications/cancelled.
      const onprogress = progress
        ? { onprogress: (p: { progress: number; total?: number; message?: string }) => progress(p.progress, p.total, p.message) }
        : {};
      try {
        return await connection.withElicitor(elicit, () =>
          connection.client.callTool({ name: toolName, arguments: args }, undefined, { signal, timeout: NO_SDK_TIMEOUT_MS, ...onprogress }),
        );
      } catch (error) {
        // A call sent as the server exits fails with the SDK's "Connection closed", sometimes before
        // onclose has run: it is the same event, told the same way.
        if (gone || (error instanceof McpError && error.code === (ErrorCode.ConnectionClosed as number))) throw stopped();
        throw error;
      }
    },
  };

  const tools: Omit<RegisteredTool, "enabled">[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const tool of listed) {
    const built = await mcpRegisteredTool(tool, server);
    if ("problem" in built) {
      diagnostics.push({
        kind: "not-a-tool",
        package: sourcePackage,
        version,
        entry: tool.name,
        message: `tool "${tool.name}" of MCP server "${name}" was skipped: ${built.problem}`,
        hint: `Tool names must be 1–64 letters, digits, "_", "." or "-" (with the prefix "${base.prefix}").`,
      });
    } else tools.push(built);
  }
  const status: SourceStatus = {
    ...base,
    state: "connected",
    toolCount: tools.length,
    server: { name: info?.name ?? name, version, ...(info?.title ? { title: info.title } : {}) },
  };
  attachSession(
    status,
    connectedSession(name, connection.client, connection.rpcLog, () => gone, options.sourceRequestTimeoutMs),
  );
  return {
    tools,
    diagnostics,
    status,
    close: async () => {
      closing = true;
      await connection.close();
    },
  };
}

async function listAllTools(connection: McpConnection): Promise<Tool[]> {
  // A server that offers only prompts or resources is connected, with no tools.
  if (!connection.client.getServerCapabilities()?.tools) return [];
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await connection.client.listTools(cursor ? { cursor } : undefined);
    tools.push(...result.tools);
    if (!result.nextCursor || result.nextCursor === cursor) return tools;
    cursor = result.nextCursor;
  }
  return tools;
}
