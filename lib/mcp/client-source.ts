import path from "node:path";
import { isDeepStrictEqual } from "node:util";
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
import { attachSession, connectedSession, failedSession, type SourceSession, type Subscription } from "./client-session";
import { mcpRegisteredTool, type McpToolServer, type Progress } from "./client-tool";

/** A server with more pages than this is looping on its cursor. */
const MAX_PAGES = 100;
// The invoke timeout (and the caller's abort) bound a call; the SDK's own 60 s default would cut
// a call that `tools.<name>.timeoutSeconds` allows. This is the longest delay a timer takes.
const NO_SDK_TIMEOUT_MS = 2 ** 31 - 1;
/** A re-list after `tools/list_changed` that takes longer fails (the last list stays); as long as a connect may take. */
const RELIST_TIMEOUT_MS = 10_000;

export interface McpSourceOptions extends ConnectOptions {
  log?: (message: string) => void;
  /** How long a Sources view request (a resource read, a prompt) may take; default SOURCE_REQUEST_TIMEOUT_MS. */
  sourceRequestTimeoutMs?: number;
  /** The servers of the registry in use (a live reload): one whose entry did not change keeps its connection. */
  previous?: SourceStatus[];
  /** Servers to connect again although their entry did not change, with why (a sign-in or sign-out changes its token). */
  reconnect?: Record<string, string>;
  /**
   * Called with a server's name once it listed its tools again after `notifications/tools/list_changed`:
   * a registry built now gets the new list (the one holding these sources keeps the old). Heard
   * until the sources are closed.
   */
  onToolsChanged?: (server: string) => void;
}

/**
 * One server's connection (or failure) as the registries that use it share it: each registry
 * holds one reference, and the connection closes when the last of them closes. A live reload
 * builds the next registry from the one in use and then closes that one, so an unchanged server
 * is handed over whole — its process, its JSON-RPC log, its subscriptions.
 */
interface Held {
  /** The entry as resolved (defaults applied, and the folder a stdio server runs in): compared whole. */
  entry: { config: McpServerSettings; cwd: string };
  failed: boolean;
  alive(): boolean;
  session: SourceSession;
  /** Replaced when the server's tool list changes; a registry copies it when it takes a share. */
  source: Omit<ToolSource, "close">;
  references: number;
  /** One per registry holding it that wants to hear of a changed tool list. */
  watchers: Set<(server: string) => void>;
  shutdown(): Promise<void>;
}

// On globalThis, as the registry and the sessions are: every route's copy of this module sees one map.
const shared = globalThis as { __toolroomMcpHeld?: WeakMap<SourceStatus, Held> };
const held = (shared.__toolroomMcpHeld ??= new WeakMap<SourceStatus, Held>());

/** The source one more registry holds; closing it gives up that registry's reference (once). */
function share(holding: Held, onToolsChanged: ((server: string) => void) | undefined): ToolSource {
  holding.references++;
  // Its own function, so two registries given the same callback each hold (and release) one.
  const watcher = onToolsChanged && ((server: string) => onToolsChanged(server));
  if (watcher) holding.watchers.add(watcher);
  let released = false;
  return {
    ...holding.source,
    close: async () => {
      if (released) return;
      released = true;
      if (watcher) holding.watchers.delete(watcher);
      if (--holding.references === 0) await holding.shutdown();
    },
  };
}

/** Why a server of the registry in use must connect again, or undefined when its connection can be kept. */
function whyReconnect(holding: Held, entry: Held["entry"], forced: string | undefined): string | undefined {
  if (forced) return forced;
  if (!isDeepStrictEqual(holding.entry, entry)) return "settings changed";
  if (holding.failed) return "it had failed to connect; trying again";
  if (!holding.alive()) return "it had stopped; starting it again";
  return undefined;
}

/**
 * Every configured server as a tool source, connected in parallel. A server that cannot start or
 * answer becomes a `source-failed` diagnostic with its stderr; the others are unaffected.
 * Connected servers stay up until every registry holding them is closed. With `previous`, an
 * unchanged entry's connection is kept; a changed one reconnects with its log going on (marked
 * with why) and its subscriptions sent again; a removed one closes with the previous registry.
 */
export function connectMcpSources(servers: Record<string, McpServerSettings>, options: McpSourceOptions): Promise<ToolSource[]> {
  return Promise.all(
    Object.entries(servers).map(async ([name, config]) => {
      const entry = { config, cwd: path.resolve(options.cwd) };
      const status = options.previous?.find((s) => s.package === `mcp:${name}`);
      const holding = status && held.get(status);
      const why = holding && whyReconnect(holding, entry, options.reconnect?.[name]);
      if (holding && !why) return share(holding, options.onToolsChanged);
      return share(await connectSource(name, entry, options, holding && why ? { session: holding.session, why } : undefined), options.onToolsChanged);
    }),
  );
}

async function connectSource(
  name: string,
  entry: Held["entry"],
  options: McpSourceOptions,
  before: { session: SourceSession; why: string } | undefined,
): Promise<Held> {
  const { config } = entry;
  const log = options.log ?? ((message: string) => console.warn(message));
  const sourcePackage = `mcp:${name}`;
  const base = {
    package: sourcePackage,
    transport: isStdio(config) ? ("stdio" as const) : ("http" as const),
    target: targetOf(config),
    prefix: config.prefix ?? "",
    ...(before ? { reconnected: { at: new Date().toISOString(), reason: before.why } } : {}),
  };
  let connected: { connection: McpConnection; result: Tool[] };
  // A reconnect goes on with the old connection's log and what the person had subscribed to.
  const rpcLog = before ? RpcLog.continuing(before.session.rpcLog, before.why) : new RpcLog();
  const subscriptions: Subscription[] = before?.session.subscriptions() ?? [];
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
    const session = failedSession(name, rpcLog, { message: failure.message, hint: failure.hint }, subscriptions);
    attachSession(status, session);
    return hold(status, {
      entry,
      failed: true,
      alive: () => false,
      session,
      source: { tools: [], diagnostics: [diagnostic], status },
      shutdown: async () => {},
    });
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

  const { tools, diagnostics } = await registeredTools(listed, server, version);
  const status: SourceStatus = {
    ...base,
    state: "connected",
    toolCount: tools.length,
    server: { name: info?.name ?? name, version, ...(info?.title ? { title: info.title } : {}) },
  };
  const session = connectedSession(name, connection.client, connection.rpcLog, () => gone, connection.listChanges, options.sourceRequestTimeoutMs);
  attachSession(status, session);
  await session.restore(subscriptions);
  const holding = hold(status, {
    entry,
    failed: false,
    alive: () => !gone,
    session,
    source: { tools, diagnostics, status },
    shutdown: async () => {
      closing = true;
      await connection.close();
    },
  });
  // The connection is kept across reloads, so its tools must follow the server's list: each change
  // lists them again (one listing at a time, and changes meanwhile make one more), then the
  // registries holding it hear of it. Resources and prompts are listed live by the Sources view.
  const relist = oneAtATime(async () => {
    if (gone) return;
    try {
      const again = await registeredTools(await listAllTools(connection, options.timeoutMs ?? RELIST_TIMEOUT_MS), server, version);
      holding.source = { ...holding.source, ...again };
      // The status is the one every registry holding the server shows: its count is the server's now.
      status.toolCount = again.tools.length;
    } catch (error) {
      if (!gone) log(`toolroom: MCP server "${name}" said its tools changed, and listing them again failed (its last list stays): ${(error as Error).message}`);
      return;
    }
    for (const watcher of holding.watchers) watcher(name);
  });
  connection.onListChanged((list) => {
    if (list === "tools") void relist();
  });
  return holding;
}

/** The server's tools as the registry takes them; one with a name the registry cannot take is a diagnostic. */
async function registeredTools(
  listed: Tool[],
  server: McpToolServer,
  version: string,
): Promise<{ tools: Omit<RegisteredTool, "enabled">[]; diagnostics: Diagnostic[] }> {
  const sourcePackage = `mcp:${server.name}`;
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
        message: `tool "${tool.name}" of MCP server "${server.name}" was skipped: ${built.problem}`,
        hint: `Tool names must be 1–64 letters, digits, "_", "." or "-" (with the prefix "${server.prefix}").`,
      });
    } else tools.push(built);
  }
  return { tools, diagnostics };
}

/** Runs `work` one at a time: calls while it runs make one more run after it, however many they are. */
function oneAtATime(work: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await work();
      } while (again);
    })().finally(() => (running = null));
    return running;
  };
}

function hold(status: SourceStatus, holding: Omit<Held, "references" | "watchers">): Held {
  const result = { ...holding, references: 0, watchers: new Set<(server: string) => void>() };
  held.set(status, result);
  return result;
}

async function listAllTools(connection: McpConnection, timeoutMs?: number): Promise<Tool[]> {
  // A server that offers only prompts or resources is connected, with no tools.
  if (!connection.client.getServerCapabilities()?.tools) return [];
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await connection.client.listTools(cursor ? { cursor } : undefined, timeoutMs ? { timeout: timeoutMs } : undefined);
    tools.push(...result.tools);
    if (!result.nextCursor || result.nextCursor === cursor) return tools;
    cursor = result.nextCursor;
  }
  return tools;
}
