// Raw HTTP for the security suite: node:http sends exactly the headers given (a forged Host,
// Origin or Sec-Fetch-Site), which browser and fetch clients rewrite or refuse to set.
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import net from "node:net";

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export function rawRequest(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  const target = new URL(url);
  // Explicit length: Node sends a DELETE body with neither length nor chunking, which servers misread.
  const headers = { ...options.headers, ...(options.body !== undefined ? { "Content-Length": String(Buffer.byteLength(options.body)) } : {}) };
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? "GET",
        headers,
        setHost: !options.headers?.Host,
        // A connection of its own: Node's default agent keeps sockets alive, and one the server
        // closed while idle (its 5 s keep-alive timeout) would be reused and hang up.
        agent: false,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.setTimeout(30_000, () => req.destroy(new Error(`timed out: ${options.method ?? "GET"} ${url}`)));
    req.end(options.body);
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** `node scripts/start.mjs` as a user runs it (it reuses the suite's build in NEXT_DIST_DIR). */
export class StartedServer {
  output = "";
  exitCode: number | null = null;
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;

  constructor(env: Record<string, string>) {
    this.child = spawn(process.execPath, ["scripts/start.mjs"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    const collect = (chunk: Buffer) => (this.output += chunk.toString());
    this.child.stdout?.on("data", collect);
    this.child.stderr?.on("data", collect);
    this.exited = new Promise((resolve) => this.child.on("exit", (code) => resolve((this.exitCode = code))));
  }

  /** Resolves with the first match of `pattern` in the output, or rejects when the process ends first. */
  async waitFor(pattern: RegExp, timeoutMs = 90_000): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = this.output.match(pattern);
      if (match) return match;
      if (this.exitCode !== null) throw new Error(`start.mjs exited (${this.exitCode}) before ${pattern}:\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${this.output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  async stop(): Promise<void> {
    if (this.exitCode === null) {
      this.child.kill("SIGTERM");
      await this.exited;
    }
  }
}
