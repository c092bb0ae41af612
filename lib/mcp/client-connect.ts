import { once } from "node:events";
import path from "node:path";
import type { Readable } from "node:stream";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ElicitRequestSchema, ErrorCode, McpError, type ElicitResult as McpElicitResult } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { mcpServerSchema } from "@/lib/settings/schema";
import type { ElicitResult, ElicitSchema } from "@/lib/tools/types";
import { RecordingTransport, RpcLog } from "./client-log";
import { StderrTail } from "./client-stderr";
import { StoredOAuthProvider } from "./oauth-provider";

export type McpServerSettings = z.infer<typeof mcpServerSchema>;

/** A server that cannot start or answer within this long is a diagnostic, not a hung start-up. */
const CONNECT_TIMEOUT_MS = 10_000;
/** Ending a session over HTTP is a courtesy: a server that does not answer it is not waited for. */
const TERMINATE_TIMEOUT_MS = 1_000;
/**
 * `notifications/*_list_changed` closer together than this count as one (the SDK's debounce, per
 * list): a server that changes many tools at once, or floods, gets one re-list after it settles.
 */
const LIST_CHANGED_DEBOUNCE_MS = 300;

/** The lists a server may say changed. */
export type ListKind = "tools" | "resources" | "prompts";
/** How many times each list changed since the connection opened (a burst counts once). */
export type ListChanges = Record<ListKind, number>;

export interface McpConnection {
  client: Client;
  /** How the server is reached, as people read it: the command line, or the URL. */
  target: string;
  /** The folder a stdio server runs in; for HTTP, the URL. */
  location: string;
  stderr: StderrTail;
  /** Its JSON-RPC traffic, newest first on the Sources view. */
  rpcLog: RpcLog;
  /**
   * Runs `work` (a tool call) with `elicit` answering the server's elicitation requests meanwhile.
   * MCP does not say which call an elicitation belongs to, so the latest call still running gets it.
   */
  withElicitor<T>(elicit: Elicit | undefined, work: () => Promise<T>): Promise<T>;
  listChanges: ListChanges;
  /**
   * Calls back each time the server says a list changed (after the debounce). The one listener;
   * changes heard before it is set (while the first tools/list runs) are told to it then.
   */
  onListChanged(listener: (list: ListKind) => void): void;
  close(): Promise<void>;
}

export type Elicit = (message: string, schema: ElicitSchema) => Promise<ElicitResult>;

/** Why a server could not be used, with what to do about it and what it wrote to stderr. */
export class McpConnectError extends Error {
  override name = "McpConnectError";
  constructor(
    message: string,
    readonly hint: string,
    readonly stderr: string,
  ) {
    super(message);
  }
}

export function isStdio(config: McpServerSettings): config is Extract<McpServerSettings, { command: string }> {
  return "command" in config;
}

/** Arguments with spaces quoted, so the line can be pasted into a shell to try the server by hand. */
export function targetOf(config: McpServerSettings): string {
  if (!isStdio(config)) return config.url;
  return [config.command, ...config.args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(" ");
}

export interface ConnectOptions {
  /** Where stdio servers are started (relative commands and arguments resolve against it). */
  cwd: string;
  clientVersion: string;
  timeoutMs?: number;
  /** Where the traffic is recorded; given by the caller so a failed start-up's log outlives it. */
  rpcLog?: RpcLog;
}

/**
 * Starts (stdio) or reaches (streamable HTTP) one server and completes the MCP handshake. The
 * `work` callback runs inside the same deadline, so a server that answers `initialize` and then
 * hangs on `tools/list` fails the same way. Every failure closes what was opened.
 */
export async function connectMcpServer<T>(
  name: string,
  config: McpServerSettings,
  options: ConnectOptions,
  work: (connection: McpConnection) => Promise<T>,
): Promise<{ connection: McpConnection; result: T }> {
  const stderr = new StderrTail();
  const transport = makeTransport(name, config, options.cwd, stderr);
  const rpcLog = options.rpcLog ?? new RpcLog();
  const listChanges: ListChanges = { tools: 0, resources: 0, prompts: 0 };
  let listener: ((list: ListKind) => void) | undefined;
  const heardBefore = new Set<ListKind>();
  // The SDK's own list_changed handling (set up only for lists whose capability says listChanged),
  // for its debounce. Not its autoRefresh: that reads one page, and a list may have many.
  const follow = (list: ListKind) => ({
    autoRefresh: false,
    debounceMs: LIST_CHANGED_DEBOUNCE_MS,
    onChanged: () => {
      listChanges[list]++;
      if (listener) listener(list);
      else heardBefore.add(list);
    },
  });
  // Form elicitation only: URL mode would send the person to a page the server picks. Sampling and
  // roots are left out (being deprecated in the spec, SEP-2577).
  const client = new Client(
    { name: "toolroom", version: options.clientVersion },
    { capabilities: { elicitation: { form: {} } }, listChanged: { tools: follow("tools"), resources: follow("resources"), prompts: follow("prompts") } },
  );
  const elicitors: (Elicit | undefined)[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request): Promise<McpElicitResult> => {
    const elicit = elicitors.findLast((e) => e !== undefined);
    // No call is waiting with a person behind it: nobody was asked, so nothing was agreed to.
    if (!elicit || request.params.mode === "url") return { action: "cancel" };
    const answer = await elicit(request.params.message, request.params.requestedSchema);
    return answer.action === "not-admitted" ? { action: "cancel" } : answer;
  });
  const connection: McpConnection = {
    client,
    target: targetOf(config),
    location: isStdio(config) ? options.cwd : config.url,
    stderr,
    rpcLog,
    withElicitor: async (elicit, work) => {
      elicitors.push(elicit);
      try {
        return await work();
      } finally {
        elicitors.splice(elicitors.lastIndexOf(elicit), 1);
      }
    },
    listChanges,
    onListChanged: (next) => {
      listener = next;
      for (const list of heardBefore) next(list);
      heardBefore.clear();
    },
    close: () => closeClient(client, transport),
  };

  const timeoutMs = options.timeoutMs ?? CONNECT_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ConnectTimeout()), timeoutMs);
  });
  try {
    const result = await Promise.race([
      client.connect(new RecordingTransport(transport, rpcLog), { timeout: timeoutMs }).then(() => work(connection)),
      deadline,
    ]);
    return { connection, result };
  } catch (error) {
    await connection.close().catch(() => {});
    await stderrSettled(transport);
    throw explain(name, config, options, error, timeoutMs, stderr.text());
  } finally {
    clearTimeout(timer);
  }
}

class ConnectTimeout extends Error {}

function makeTransport(name: string, config: McpServerSettings, cwd: string, stderr: StderrTail): Transport {
  if (isStdio(config)) {
    const transport = new StdioClientTransport({ command: config.command, args: config.args, env: config.env, cwd, stderr: "pipe" });
    // The stream exists before start(), so nothing a server prints while it dies is lost.
    transport.stderr?.on("data", (chunk: Buffer) => stderr.append(chunk));
    return transport;
  }
  // Stored tokens (from `toolroom mcp login` or Sign in) go with every request; the SDK refreshes them.
  const authProvider = new StoredOAuthProvider({ server: name, serverUrl: config.url, ...(config.oauth ? { oauth: config.oauth } : {}) });
  // Refusals (401, 403 insufficient_scope) and refreshes join the server's OAuth flow log: the OAuth
  // view shows them, and `toolroom call` reads a step-up's scope from there.
  return new StreamableHTTPClientTransport(new URL(config.url), {
    requestInit: { headers: config.headers },
    authProvider,
    fetch: authProvider.recordingFetch({ fresh: false }),
  });
}

/** stderr is piped through a PassThrough: its last chunks may land a tick after the process closed. */
async function stderrSettled(transport: Transport): Promise<void> {
  if (!(transport instanceof StdioClientTransport) || !transport.stderr) return;
  // With stderr: "pipe" the SDK hands out its PassThrough, a Readable.
  const stream = transport.stderr as Readable;
  if (stream.readableEnded) return;
  await Promise.race([once(stream, "end").catch(() => {}), new Promise((resolve) => setTimeout(resolve, 200).unref())]);
}

async function closeClient(client: Client, transport: Transport): Promise<void> {
  if (transport instanceof StreamableHTTPClientTransport) {
    await Promise.race([transport.terminateSession().catch(() => {}), new Promise((resolve) => setTimeout(resolve, TERMINATE_TIMEOUT_MS).unref())]);
  }
  // Stdio: closing ends the server's stdin, then SIGTERM, then SIGKILL (the SDK's sequence).
  await client.close();
}

function explain(name: string, config: McpServerSettings, options: ConnectOptions, error: unknown, timeoutMs: number, stderr: string): McpConnectError {
  const key = `mcpServers.${name}`;
  const err = error instanceof Error ? error : new Error(String(error));
  const code = (err as NodeJS.ErrnoException).code;
  if (err instanceof ConnectTimeout || (err instanceof McpError && err.code === Number(ErrorCode.RequestTimeout))) {
    return new McpConnectError(
      `the server did not answer within ${timeoutMs / 1000} s`,
      isStdio(config)
        ? `Run the command by hand to see whether it starts and speaks MCP on stdio: ${targetOf(config)}`
        : `Check that ${config.url} is an MCP streamable HTTP endpoint and reachable.`,
      stderr,
    );
  }
  if (err instanceof McpError && err.code !== Number(ErrorCode.ConnectionClosed)) {
    // It answered, with an error: a protocol or server problem, not a transport one.
    return new McpConnectError(
      `the server answered with an error: ${err.message}`,
      `Check the server's own documentation for ${key}; Toolroom needs initialize and tools/list to work.`,
      stderr,
    );
  }
  if (isStdio(config)) {
    if (code === "ENOENT") {
      const where = !config.command.includes("/")
        ? "not found on PATH"
        : path.isAbsolute(config.command)
          ? "no such file"
          : `no such file (relative to ${path.resolve(options.cwd)})`;
      return new McpConnectError(`cannot start "${config.command}": ${where}`, `Fix ${key}.command: name an installed executable, or give its path.`, stderr);
    }
    if (code === "EACCES")
      return new McpConnectError(
        `cannot start "${config.command}": permission denied`,
        `Make ${config.command} executable, or run it through its interpreter (command: node, args: [the script]).`,
        stderr,
      );
    if (err instanceof McpError && err.code === Number(ErrorCode.ConnectionClosed)) {
      return new McpConnectError(
        "the server exited before it answered",
        stderr
          ? `Its stderr says why (often a missing file, package or key: see ${key}.args and .env). Fix it, then restart Toolroom.`
          : `It printed nothing. Run it by hand to see why: ${targetOf(config)}`,
        stderr,
      );
    }
    return new McpConnectError(`the server failed: ${err.message}`, `Run it by hand to see why: ${targetOf(config)}`, stderr);
  }
  if (err instanceof UnauthorizedError || /needs you to sign in/.test(err.message))
    return new McpConnectError(`${config.url} needs you to sign in (OAuth)`, `Run \`toolroom mcp login ${name}\`, or use Sign in on the Sources view.`, stderr);
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : "";
  return new McpConnectError(
    `cannot reach ${config.url}: ${err.message}${cause}`,
    `Check ${key}.url and ${key}.headers (an auth header, if the server needs one).`,
    stderr,
  );
}
