import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { SessionEventStore } from "@/lib/mcp/event-store";
import { negotiatedVersion, servedVersion } from "@/lib/mcp/protocol-version";

export interface McpHttpFront {
  /** The MCP endpoint, on loopback. */
  url: string;
  /** Closes every session, then the listener. */
  close(): Promise<void>;
}

export interface McpHttpFrontOptions {
  /** Connects a new session's transport to whatever serves it; runs once per `initialize`. */
  open: (transport: StreamableHTTPServerTransport) => Promise<void>;
  /** Reject a Host that is not this loopback listener (DNS rebinding), as the web app's proxy does. */
  checkHost: boolean;
  /**
   * A session with no HTTP request open (no stream, no pending POST) for this long is closed: the
   * SDK client's close() drops its streams but never sends DELETE, and a suite opens dozens of sessions.
   */
  idleMs?: number;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  /** The protocol version `initialize` settled on (lib/mcp/protocol-version.ts). */
  version: string;
  open: number;
  idle?: NodeJS.Timeout;
}

/**
 * Streamable HTTP on loopback the way /api/mcp serves it (lib/server/mcp/mcp-http.ts): stateful, one
 * session per `initialize` with an `Mcp-Session-Id`, SSE answers with an event store (resumable
 * streams, the priming event and `retry`), the negotiated protocol version as the authority. What
 * answers a session is the caller's `open`: an in-process MCP server, or a stdio child.
 */
export async function startMcpHttpFront({ open, checkHost, idleMs = 5000 }: McpHttpFrontOptions): Promise<McpHttpFront> {
  const sessions = new Map<string, Session>();
  const server = http.createServer((req, res) => {
    serve(req, res).catch((error: unknown) => {
      process.stderr.write(`mcp-http-front: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  const refuse = (res: http.ServerResponse, status: number, code: number, message: string) =>
    void res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));

  /** Counts the request as open on the session until its response ends; the last one to end starts the idle clock. */
  const hold = (session: Session, res: http.ServerResponse) => {
    clearTimeout(session.idle);
    session.open++;
    res.once("close", () => {
      if (--session.open === 0) session.idle = setTimeout(() => void session.transport.close(), idleMs).unref();
    });
  };

  const serve = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: unknown;
    try {
      body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
    } catch {
      return refuse(res, 400, -32700, "Parse error: the body is not JSON.");
    }
    const id = req.headers["mcp-session-id"];
    if (typeof id === "string") {
      const session = sessions.get(id);
      if (!session) return refuse(res, 404, -32001, "Session not found: start a new one with initialize.");
      const served = servedVersion(req.headers["mcp-protocol-version"] as string | undefined, session.version);
      if (served) {
        // The SDK's Node transport builds its Request from rawHeaders.
        const at = req.rawHeaders.findIndex((name, i) => i % 2 === 0 && name.toLowerCase() === "mcp-protocol-version");
        req.rawHeaders[at + 1] = served;
      }
      hold(session, res);
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== "POST" || !isInitializeRequest(body)) return refuse(res, 400, -32000, "Bad Request: no session; send initialize first.");
    const port = (server.address() as AddressInfo).port;
    const session: Session = {
      transport: undefined as unknown as StreamableHTTPServerTransport,
      version: negotiatedVersion(body.params.protocolVersion),
      open: 0,
    };
    session.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new SessionEventStore(),
      // How long a client that lost its stream waits before resuming it.
      retryInterval: 1000,
      ...(checkHost ? { enableDnsRebindingProtection: true, allowedHosts: [`127.0.0.1:${port}`, `localhost:${port}`] } : {}),
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, session),
    });
    await open(session.transport);
    const closed = session.transport.onclose;
    session.transport.onclose = () => {
      closed?.();
      clearTimeout(session.idle);
      if (session.transport.sessionId) sessions.delete(session.transport.sessionId);
    };
    hold(session, res);
    await session.transport.handleRequest(req, res, body);
  };

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: async () => {
      await Promise.all([...sessions.values()].map((s) => s.transport.close()));
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
