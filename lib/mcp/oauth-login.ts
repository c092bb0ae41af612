import http from "node:http";
import type { AddressInfo } from "node:net";
import { auth, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { readMcpOAuth } from "@/lib/db/mcp-oauth";
import type { McpServerSettings } from "./client-connect";
import { maskUrl } from "./oauth-flow-log";
import { StoredOAuthProvider } from "./oauth-provider";

type HttpServer = Extract<McpServerSettings, { url: string }>;

/** How long the person has to finish signing in. */
const LOGIN_TIMEOUT_MS = 5 * 60_000;

interface Callback {
  redirectUrl: string;
  answer: Promise<URLSearchParams>;
  close(): void;
}

/** A one-shot listener on 127.0.0.1 for the authorization server's redirect back (RFC 8252 loopback). */
async function loopbackCallback(timeoutMs: number): Promise<Callback> {
  let deliver!: (query: URLSearchParams) => void;
  let fail!: (error: Error) => void;
  const answer = new Promise<URLSearchParams>((resolve, reject) => ((deliver = resolve), (fail = reject)));
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/callback") return void response.writeHead(404).end();
    const failed = url.searchParams.get("error");
    response.writeHead(failed ? 400 : 200, { "content-type": "text/plain; charset=utf-8" });
    response.end(
      failed ? `Sign-in failed: ${failed}. You can close this tab.` : "Signed in to the MCP server. You can close this tab and return to the terminal.",
    );
    deliver(url.searchParams);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const timer = setTimeout(() => fail(new Error(`nobody finished signing in within ${timeoutMs / 60_000} minutes`)), timeoutMs);
  const { port } = server.address() as AddressInfo;
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    answer,
    close: () => {
      clearTimeout(timer);
      server.close();
      server.closeAllConnections();
    },
  };
}

export interface LoginOptions {
  clientVersion: string;
  /** Opens the authorization page (the CLI: $BROWSER, else print it). */
  open: (url: URL) => void | Promise<void>;
  timeoutMs?: number;
  /** Step-up: the scope a 403 insufficient_scope asked for. */
  scope?: string;
}

/**
 * Signs in to one remote MCP server through the SDK's client auth: a first connection gets 401,
 * the SDK discovers and registers, the person authorizes in a browser, the code comes back to the
 * loopback listener and is exchanged; a second connection proves the tokens. Returns the tool count.
 * `scope` (step-up, after a 403 insufficient_scope): authorize again for it, whatever is stored,
 * with the union of it and the scopes already granted.
 */
export async function loginMcpServer(name: string, config: HttpServer, options: LoginOptions): Promise<{ toolCount: number }> {
  const callback = await loopbackCallback(options.timeoutMs ?? LOGIN_TIMEOUT_MS);
  const provider = new StoredOAuthProvider({
    server: name,
    serverUrl: config.url,
    ...(config.oauth ? { oauth: config.oauth } : {}),
    redirectUrl: callback.redirectUrl,
    reauthorize: options.scope !== undefined,
    openAuthorization: async (url) => {
      await provider.noteStep({ kind: "authorization", method: "GET", url: maskUrl(url.href), note: "the browser is sent to the authorization page" });
      await options.open(url);
    },
  });
  const fetch = provider.recordingFetch({ fresh: true });
  /** The code the authorization server sent back, once the person has authorized. */
  const authorizedCode = async (): Promise<string> => {
    const query = await callback.answer;
    await provider.noteStep({
      kind: "callback",
      method: "GET",
      url: maskUrl(`${callback.redirectUrl}?${query.toString()}`),
      ...(query.get("error") ? { error: query.get("error") ?? "" } : {}),
    });
    if (query.get("error"))
      throw new Error(`the authorization server refused: ${query.get("error")}${query.get("error_description") ? ` (${query.get("error_description")})` : ""}`);
    if (!provider.checkState(query.get("state"))) throw new Error("the sign-in answer did not carry this sign-in's state; start again");
    const code = query.get("code");
    if (!code) throw new Error("the authorization server sent no code back");
    return code;
  };
  // A server may let `initialize` through and ask for a token only on `tools/list`: both are tried.
  const connect = async () => {
    const transport = new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers }, authProvider: provider, fetch });
    const client = new Client({ name: "toolroom", version: options.clientVersion }, { capabilities: { elicitation: { form: {} } } });
    try {
      await client.connect(transport);
      const toolCount = client.getServerCapabilities()?.tools ? (await client.listTools()).tools.length : 0;
      return { client, transport, authorized: true as const, toolCount };
    } catch (error) {
      if (!(error instanceof UnauthorizedError)) throw error;
      return { client, transport, authorized: false as const, toolCount: 0 };
    }
  };
  try {
    if (options.scope !== undefined) {
      const result = await auth(provider, { serverUrl: new URL(config.url), scope: options.scope, fetchFn: fetch });
      if (result === "REDIRECT") await auth(provider, { serverUrl: new URL(config.url), authorizationCode: await authorizedCode(), fetchFn: fetch });
    }
    let attempt = await connect();
    if (!attempt.authorized) {
      await attempt.transport.finishAuth(await authorizedCode());
      await attempt.client.close();
      attempt = await connect();
      if (!attempt.authorized) throw new Error("the server still refuses the new token");
    }
    await attempt.transport.terminateSession().catch(() => {});
    await attempt.client.close();
    return { toolCount: attempt.toolCount };
  } finally {
    callback.close();
  }
}

/**
 * Revokes the stored tokens at the authorization server when it offers revocation (RFC 7009):
 * true when it accepted one. The tokens stay stored: the caller forgets them (the web's Sign out
 * keeps the registration, `toolroom mcp logout` forgets it too).
 */
export async function revokeMcpTokens(name: string, config: HttpServer): Promise<boolean> {
  const stored = await readMcpOAuth(name, config.url);
  const tokens = stored?.tokens as { access_token?: string; refresh_token?: string } | undefined;
  const discovery = stored?.discovery as { authorizationServerMetadata?: { revocation_endpoint?: string } } | undefined;
  const endpoint = discovery?.authorizationServerMetadata?.revocation_endpoint;
  const client = (config.oauth?.clientId ? { client_id: config.oauth.clientId, client_secret: config.oauth.clientSecret } : stored?.clientInfo) as
    { client_id?: string; client_secret?: string } | undefined;
  if (!endpoint || !tokens || !client?.client_id) return false;
  const provider = new StoredOAuthProvider({ server: name, serverUrl: config.url, ...(config.oauth ? { oauth: config.oauth } : {}), redirectUrl: "" });
  const fetchFn = provider.recordingFetch({ fresh: false });
  let revoked = false;
  for (const [hint, token] of [
    ["refresh_token", tokens.refresh_token],
    ["access_token", tokens.access_token],
  ] as const) {
    if (!token) continue;
    const body = new URLSearchParams({ token, token_type_hint: hint, client_id: client.client_id });
    if (client.client_secret) body.set("client_secret", client.client_secret);
    const response = await fetchFn(endpoint, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body }).catch(() => undefined);
    revoked ||= response?.ok === true;
  }
  return revoked;
}
