// Test support: `toolroom mcp` (stdio) behind a loopback streamable-HTTP endpoint, because the MCP
// conformance suite drives servers by URL only. Each session (one per `initialize`) is one
// `toolroom mcp` child, the real CLI entry, and every JSON-RPC message goes through as it is, both
// ways; what the suite measures is the stdio server. The HTTP side is lib/testing/mcp-http-front.ts.
//   node --import tsx lib/testing/stdio-bridge.ts <settings file> <state folder>
// run in the checkout's folder (tsx reads its tsconfig paths), prints {"url": …} on stdout once it
// listens; the children's stderr comes out on its stderr, each line tagged with the child's pid. It
// ends on SIGTERM, SIGINT or when its stdin closes. A line of its own on stderr ("stdio-bridge: …")
// is a message it could not pass on.
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";
import { cliEnv, TOOLROOM_BIN } from "./cli";
import { startMcpHttpFront } from "./mcp-http-front";

const [config = "", state = ""] = process.argv.slice(2);
if (!config || !state) {
  process.stderr.write("usage: node --import tsx lib/testing/stdio-bridge.ts <settings file> <state folder>\n");
  process.exit(2);
}
const log = (line: string) => process.stderr.write(`stdio-bridge: ${line}\n`);
const children = new Set<StdioClientTransport>();

/**
 * Joins one HTTP session to a new `toolroom mcp`. Stdio has one channel, so the child's messages
 * carry nothing of which HTTP stream they belong on; the transport needs that (`relatedRequestId`):
 * a response goes where its request came from (the transport knows from the id), progress where the
 * request that asked for it with its progress token came from, and any other request or
 * notification (a log line, an elicitation) of the child while a request is unanswered on the
 * stream of the newest such request, the one it is most likely part of; with none unanswered, on
 * the standalone GET stream.
 */
async function open(http: StreamableHTTPServerTransport): Promise<void> {
  const child = new StdioClientTransport({
    command: process.execPath,
    args: [TOOLROOM_BIN, "--config", config, "mcp"],
    env: cliEnv(state),
    cwd: state,
    stderr: "pipe",
  });
  const unanswered: RequestId[] = [];
  const progressOf = new Map<string | number, RequestId>();
  const answered = (request: RequestId) => {
    const at = unanswered.indexOf(request);
    if (at >= 0) unanswered.splice(at, 1);
    for (const [token, id] of progressOf) if (id === request) progressOf.delete(token);
  };
  let stderrTail = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    const lines = (stderrTail + chunk.toString()).split("\n");
    stderrTail = lines.pop() ?? "";
    for (const line of lines) process.stderr.write(`[toolroom mcp ${child.pid}] ${line}\n`);
  });

  http.onmessage = (message) => {
    if ("method" in message && "id" in message) {
      unanswered.push(message.id);
      const token = message.params?._meta?.progressToken;
      if (token !== undefined) progressOf.set(token, message.id);
    } else if ("method" in message && message.method === "notifications/cancelled") {
      // A cancelled request gets no answer: nothing more of the child's belongs on its stream.
      answered(message.params?.requestId as RequestId);
    }
    child.send(message).catch((error: unknown) => log(`to child ${child.pid}: ${String(error)}`));
  };
  child.onmessage = (message: JSONRPCMessage) => {
    let relatedRequestId: RequestId | undefined;
    if ("method" in message) {
      const token = message.method === "notifications/progress" ? (message.params?.progressToken as string | number | undefined) : undefined;
      relatedRequestId = (token !== undefined ? progressOf.get(token) : undefined) ?? unanswered.at(-1);
    } else if (message.id !== undefined) {
      answered(message.id);
    }
    // A stream the client has dropped (and no event store can replay) throws: the message is lost, as it would be over HTTP.
    http.send(message, { relatedRequestId }).catch((error: unknown) => log(`from child ${child.pid}: ${String(error)}`));
  };
  child.onerror = (error) => log(`child ${child.pid}: ${error.message}`);
  // The child ended (or never started): its session ends with it, so the client gets 404, not silence.
  child.onclose = () => {
    if (stderrTail) process.stderr.write(`[toolroom mcp ${child.pid}] ${stderrTail}\n`);
    children.delete(child);
    void http.close();
  };
  http.onclose = () => void child.close();
  children.add(child);
  await child.start();
}

const front = await startMcpHttpFront({ open, checkHost: false });
const stop = async () => {
  // Each child first (stdin closed, then SIGTERM if it lingers), so none outlives the bridge.
  await Promise.all([...children].map((child) => child.close()));
  await front.close();
  process.exit(0);
};
for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void stop());
process.stdin.on("end", () => void stop()).resume();
process.stdout.write(`${JSON.stringify({ url: front.url })}\n`);
