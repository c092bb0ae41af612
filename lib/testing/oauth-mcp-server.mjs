// A loopback MCP server behind OAuth 2.1, made with the MCP SDK's server-side auth helpers: one
// origin is both the authorization server (mcpAuthRouter: metadata, dynamic registration,
// authorize, token, revoke) and the protected resource (requireBearerAuth on /mcp, protected-
// resource metadata). Authorization needs no login page: it redirects straight back with a code,
// as a person who clicked "Allow" would. Options: `preRegistered`, a client the authorization
// server knows beforehand (and no dynamic registration); `stepUpScope`, a second tool, publish,
// that needs that scope too and is refused with 403 insufficient_scope without it. Run directly
// (`node oauth-mcp-server.mjs`), it prints its URL; tests import startOAuthMcpServer().
import { randomUUID } from "node:crypto";
import express from "express";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { mcpAuthRouter, getOAuthProtectedResourceMetadataUrl } from "@modelcontextprotocol/sdk/server/auth/router.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import { z } from "zod";

class Provider {
  clients = new Map();
  codes = new Map();
  tokens = new Map();
  revoked = [];
  /** Each authorization request: the client and the scopes it asked for, in order. */
  authorizations = [];
  constructor(preRegistered) {
    const getClient = async (id) => this.clients.get(id);
    // The CLI's loopback redirect, any port (RFC 8252 §7.3, which the SDK's authorize handler follows).
    if (preRegistered) this.clients.set(preRegistered.client_id, { redirect_uris: ["http://127.0.0.1/callback"], ...preRegistered });
    // Without registerClient, mcpAuthRouter advertises and serves no registration endpoint.
    this.clientsStore = preRegistered ? { getClient } : { getClient, registerClient: async (client) => (this.clients.set(client.client_id, client), client) };
  }
  async authorize(client, params, res) {
    this.authorizations.push({ clientId: client.client_id, scopes: params.scopes ?? [] });
    const code = randomUUID();
    this.codes.set(code, { client, params });
    const target = new URL(params.redirectUri);
    target.searchParams.set("code", code);
    if (params.state !== undefined) target.searchParams.set("state", params.state);
    res.redirect(target.toString());
  }
  async challengeForAuthorizationCode(_client, code) {
    const entry = this.codes.get(code);
    if (!entry) throw new Error("unknown code");
    return entry.params.codeChallenge;
  }
  async exchangeAuthorizationCode(client, code) {
    const entry = this.codes.get(code);
    if (!entry || entry.client.client_id !== client.client_id) throw new Error("unknown code");
    this.codes.delete(code);
    const token = randomUUID();
    const refresh = randomUUID();
    const scopes = entry.params.scopes ?? [];
    this.tokens.set(token, { clientId: client.client_id, scopes, expiresAt: Math.floor(Date.now() / 1000) + 3600 });
    this.tokens.set(refresh, { clientId: client.client_id, scopes, refresh: true });
    return { access_token: token, refresh_token: refresh, token_type: "bearer", expires_in: 3600, scope: scopes.join(" ") };
  }
  async exchangeRefreshToken(client, refreshToken) {
    const entry = this.tokens.get(refreshToken);
    if (!entry?.refresh) throw new Error("unknown refresh token");
    const token = randomUUID();
    this.tokens.set(token, { clientId: client.client_id, scopes: entry.scopes, expiresAt: Math.floor(Date.now() / 1000) + 3600 });
    return { access_token: token, token_type: "bearer", expires_in: 3600, scope: entry.scopes.join(" ") };
  }
  async verifyAccessToken(token) {
    const entry = this.tokens.get(token);
    if (!entry || entry.refresh) throw new (await import("@modelcontextprotocol/sdk/server/auth/errors.js")).InvalidTokenError("unknown token");
    return { token, clientId: entry.clientId, scopes: entry.scopes, expiresAt: entry.expiresAt };
  }
  /** Every access token issued so far stops working (as at its expiry); refresh tokens still do. */
  expireAccessTokens() {
    for (const [token, entry] of this.tokens) if (!entry.refresh) this.tokens.delete(token);
  }
  async revokeToken(_client, request) {
    this.revoked.push(request.token);
    this.tokens.delete(request.token);
  }
}

/** Starts the server on 127.0.0.1 (port 0: any free one); `close()` stops it. */
export async function startOAuthMcpServer({ port = 0, preRegistered, stepUpScope } = {}) {
  const app = express();
  const provider = new Provider(preRegistered);
  const server = await new Promise((resolve) => {
    const s = app.listen(port, "127.0.0.1", () => resolve(s));
  });
  const origin = `http://127.0.0.1:${server.address().port}`;
  const mcpUrl = new URL("/mcp", origin);
  app.use(
    mcpAuthRouter({ provider, issuerUrl: new URL(origin), resourceServerUrl: mcpUrl, scopesSupported: ["mcp:tools"], resourceName: "Toolroom test server" }),
  );
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(mcpUrl);
  const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl });
  /** publish needs stepUpScope besides what was granted: the challenge names both, as the spec's scope selection has it. */
  const stepUp = (req, res, next) => {
    const granted = req.auth?.scopes ?? [];
    if (!stepUpScope || req.body?.method !== "tools/call" || req.body?.params?.name !== "publish" || granted.includes(stepUpScope)) return next();
    const scope = ["mcp:tools", stepUpScope].join(" ");
    res
      .status(403)
      .set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${resourceMetadataUrl}"`)
      .json({ error: "insufficient_scope", error_description: `publish needs ${stepUpScope}` });
  };
  app.post("/mcp", express.json(), bearer, stepUp, async (req, res) => {
    // Stateless: a server and transport per request.
    const mcp = new McpServer({ name: "oauth-test", version: "1.0.0" });
    mcp.registerTool(
      "whoami",
      { description: "Says which OAuth client called it.", inputSchema: { greeting: z.string().optional() } },
      async (_args, extra) => ({
        content: [{ type: "text", text: `signed in as ${extra.authInfo?.clientId ?? "nobody"}` }],
      }),
    );
    if (stepUpScope)
      mcp.registerTool("publish", { description: `Needs the ${stepUpScope} scope.` }, async (extra) => ({
        content: [{ type: "text", text: `published with ${extra.authInfo?.scopes.join(" ")}` }],
      }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => void transport.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  return {
    url: mcpUrl.href,
    provider,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.argv[2] ?? 0);
  const started = await startOAuthMcpServer({ port });
  console.log(started.url);
}
