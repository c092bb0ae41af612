import "server-only";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { randomUUID } from "node:crypto";
import { SessionEventStore } from "@/lib/mcp/event-store";
import { negotiatedVersion, servedVersion } from "@/lib/mcp/protocol-version";
import { createMcpServer } from "@/lib/mcp/server";
import { ruleDecider } from "@/lib/server/approvals/rule-book";
import { getSettings } from "@/lib/settings";
import { databaseMcpAudit } from "./mcp-audit";
import { mcpServeOptions } from "./mcp-serve";
import { getRegistry, onRegistryChange } from "@/lib/server/runtime/registry";

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  lastSeen: number;
  /** The protocol version `initialize` settled on. */
  version: string;
}

/** A session nobody has used for this long is closed (clients that never send DELETE). */
const IDLE_MS = 60 * 60 * 1000;

const cache = globalThis as unknown as { __toolroomMcpSessions?: Map<string, Session> };
const sessions = (cache.__toolroomMcpSessions ??= new Map<string, Session>());

/**
 * `/api/mcp`: the streamable-HTTP transport, one MCP server per session. The proxy has already
 * checked Host (DNS rebinding), the token off loopback and cross-site requests.
 */
export async function handleMcpRequest(request: Request): Promise<Response> {
  closeIdleSessions();
  const id = request.headers.get("mcp-session-id");
  if (id) {
    const session = sessions.get(id);
    if (!session) return jsonRpcError(404, -32001, "Session not found: start a new one with initialize.");
    session.lastSeen = Date.now();
    return session.transport.handleRequest(asNegotiated(request, session.version));
  }
  if (request.method !== "POST") return jsonRpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required.");

  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return jsonRpcError(400, -32700, "Parse error: the body is not JSON.");
  }
  const initialize = (Array.isArray(body) ? body : [body]).find((m) => isInitializeRequest(m));
  if (!initialize) return jsonRpcError(400, -32000, "Bad Request: no session; send initialize first.");

  const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    eventStore: new SessionEventStore(),
    // How long a client that lost its stream waits before resuming it.
    retryInterval: 1000,
    onsessioninitialized: (sessionId) => {
      sessions.set(sessionId, { transport, lastSeen: Date.now(), version: negotiatedVersion(initialize.params.protocolVersion) });
    },
    onsessionclosed: (sessionId) => {
      sessions.delete(sessionId);
    },
  });
  const settings = getSettings();
  const options = mcpServeOptions(await getRegistry(), settings, databaseMcpAudit, (m) => console.error(m), getSettings);
  // Settings rules (as a live reload left them), then the UI's "everywhere" rules, read afresh for every call (a session is long-lived).
  const server = createMcpServer({ ...options, watchRegistry: onRegistryChange, rules: (call) => ruleDecider(getSettings(), undefined)(call) });
  await server.connect(transport);
  return transport.handleRequest(request, { parsedBody: body });
}

/** The request with its MCP-Protocol-Version read as the session's negotiated one (lib/mcp/protocol-version.ts). */
function asNegotiated(request: Request, negotiated: string): Request {
  const header = request.headers.get("mcp-protocol-version");
  const served = servedVersion(header, negotiated);
  if (served === header) return request;
  const headers = new Headers(request.headers);
  headers.set("mcp-protocol-version", served!);
  return new Request(request, { headers });
}

function closeIdleSessions(): void {
  const cutoff = Date.now() - IDLE_MS;
  for (const [id, session] of sessions) {
    if (session.lastSeen < cutoff) {
      sessions.delete(id);
      void session.transport.close();
    }
  }
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });
}
