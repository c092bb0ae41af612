import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FetchFront {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  close(): Promise<void>;
}

/**
 * A loopback HTTP server that hands each request to `serve` as a Fetch API Request and writes its
 * Response back, every Set-Cookie kept: route handlers answer real HTTP clients the way `next
 * start` would have them, without building the app.
 */
export async function startFetchFront(serve: (request: Request) => Promise<Response>): Promise<FetchFront> {
  const server = http.createServer((req, res) => {
    void answer(req, res).catch((error: unknown) => {
      process.stderr.write(`fetch-front: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  const answer = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    const method = req.method ?? "GET";
    const body = method === "GET" || method === "HEAD" ? undefined : Buffer.concat(chunks);
    const response = await serve(new Request(`http://${req.headers.host}${req.url}`, { method, headers, body }));
    const out: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => {
      if (name !== "set-cookie") out[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length) out["set-cookie"] = cookies;
    res.writeHead(response.status, out);
    res.end(Buffer.from(await response.arrayBuffer()));
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
