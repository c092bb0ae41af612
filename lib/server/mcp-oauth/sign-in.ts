import "server-only";
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import { readMcpOAuth, writeMcpOAuth } from "@/lib/db/mcp-oauth";
import { isStdio, type McpServerSettings } from "@/lib/mcp/client-connect";
import { maskUrl, type OAuthFlowStep } from "@/lib/mcp/oauth-flow-log";
import { revokeMcpTokens } from "@/lib/mcp/oauth-login";
import { StoredOAuthProvider } from "@/lib/mcp/oauth-provider";
import { getSettings } from "@/lib/settings";
import { audit } from "@/lib/server/auth/audit";
import { HttpError } from "@/lib/server/http/http-error";
import { reloadRegistryNow } from "@/lib/server/runtime/server-reload";

type HttpServer = Extract<McpServerSettings, { url: string }>;

/** Where the authorization server sends the browser back: a Toolroom route. */
const CALLBACK_PATH = "/oauth/callback";
/** How long a started sign-in waits for its callback. */
const FLOW_TTL_MS = 10 * 60_000;
const FLOWS_KEPT = 50;

export interface OAuthStatusView {
  server: string;
  url: string;
  /** signed-in: a token is stored; needs-sign-in: the server refused us for want of one; signed-out: nothing stored. */
  state: "signed-in" | "signed-out" | "needs-sign-in";
  /** The scopes the stored token was granted, as the authorization server said. */
  scope?: string;
  /** When the stored access token expires (a refresh token renews it). */
  expiresAt?: string;
  refreshable: boolean;
  steps: OAuthFlowStep[];
}

interface Flow {
  server: string;
  provider: StoredOAuthProvider;
  returnTo: string;
  startedAt: number;
}

// A started sign-in waits here for its callback, keyed by the `state` it sent (the callback's proof).
const store = globalThis as unknown as { __toolroomOAuthFlows?: Map<string, Flow> };
const flows = (store.__toolroomOAuthFlows ??= new Map<string, Flow>());

function httpServer(name: string): HttpServer {
  const config = getSettings().mcpServers[name];
  if (!config) throw new HttpError(404, `No MCP server named "${name}" in mcpServers.`, "unknown_server");
  if (isStdio(config)) throw new HttpError(400, `mcpServers.${name} runs over stdio: only remote (url) servers sign in.`, "not_remote");
  return config;
}

/** The HTTP servers of the settings, by name: the ones a person may sign in to. */
export function remoteServers(): { name: string; url: string }[] {
  return Object.entries(getSettings().mcpServers)
    .filter(([, c]) => !isStdio(c))
    .map(([name, c]) => ({ name, url: (c as HttpServer).url }));
}

interface StoredTokens {
  access_token?: string;
  refresh_token?: string;
  scope?: string;
  expires_in?: number;
}

/** What is stored for one server, without a secret: whether signed in, the scope, the last flow's steps. */
export async function oauthStatus(name: string): Promise<OAuthStatusView> {
  const config = httpServer(name);
  const stored = await readMcpOAuth(name, config.url);
  const tokens = stored?.tokens as (StoredTokens & { savedAt?: string }) | undefined;
  const steps = (stored?.flowLog as OAuthFlowStep[] | undefined) ?? [];
  const refused = steps.some((s) => s.kind === "mcp-request" && s.status === 401);
  const view: OAuthStatusView = {
    server: name,
    url: config.url,
    state: tokens?.access_token ? "signed-in" : refused ? "needs-sign-in" : "signed-out",
    refreshable: Boolean(tokens?.refresh_token),
    steps,
  };
  if (tokens?.scope) view.scope = tokens.scope;
  return view;
}

function providerFor(name: string, config: HttpServer, redirectUrl: string, openAuthorization?: (url: URL) => void): StoredOAuthProvider {
  return new StoredOAuthProvider({
    server: name,
    serverUrl: config.url,
    ...(config.oauth ? { oauth: config.oauth } : {}),
    redirectUrl,
    ...(openAuthorization ? { openAuthorization } : {}),
  });
}

/**
 * Starts a sign-in through the SDK's client auth: discovery, registration, PKCE; answers with the
 * authorization page to send the browser to, or `authorized` when no person was needed (a refresh).
 */
export async function startSignIn(name: string, origin: string, returnTo: string): Promise<{ authorizationUrl?: string; authorized: boolean }> {
  const config = httpServer(name);
  let authorizationUrl: URL | undefined;
  const provider = providerFor(name, config, new URL(CALLBACK_PATH, origin).href, (url) => void (authorizationUrl = url));
  const fetchFn = provider.recordingFetch({ fresh: true });
  // The server's 401 challenge says where its metadata is and which scope it wants (as on first use).
  const challenge = await fetchFn(config.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...config.headers },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "toolroom", version: "0" } },
    }),
  }).catch(() => undefined);
  const header = challenge?.status === 401 ? (challenge.headers.get("www-authenticate") ?? "") : "";
  const resourceMetadata = /resource_metadata="([^"]+)"/.exec(header)?.[1];
  const scope = /scope="([^"]+)"/.exec(header)?.[1];
  const result = await auth(provider, {
    serverUrl: config.url,
    ...(resourceMetadata && URL.canParse(resourceMetadata) ? { resourceMetadataUrl: new URL(resourceMetadata) } : {}),
    ...(scope ? { scope } : {}),
    fetchFn,
  });
  if (result === "AUTHORIZED" || !authorizationUrl) {
    await reloadRegistryNow([`mcpServers.${name} (signed in)`], name, "signed in");
    await audit("mcp.signed-in", name, { by: "refresh" });
    return { authorized: true };
  }
  const state = authorizationUrl.searchParams.get("state") ?? "";
  await provider.noteStep({ kind: "authorization", method: "GET", url: maskUrl(authorizationUrl.href), note: "the browser is sent to the authorization page" });
  for (const [key, flow] of flows) if (Date.now() - flow.startedAt > FLOW_TTL_MS || flow.server === name) flows.delete(key);
  flows.set(state, { server: name, provider, returnTo, startedAt: Date.now() });
  while (flows.size > FLOWS_KEPT) flows.delete(flows.keys().next().value as string);
  await audit("mcp.sign-in-started", name);
  return { authorizationUrl: authorizationUrl.href, authorized: false };
}

/**
 * The authorization server's redirect back: only a `state` this process issued, once, within the
 * time; the code is exchanged (with the PKCE verifier) and the server's tools are listed again.
 * Returns where to send the browser.
 */
export async function finishSignIn(query: URLSearchParams): Promise<string> {
  const state = query.get("state") ?? "";
  const flow = flows.get(state);
  if (!flow || Date.now() - flow.startedAt > FLOW_TTL_MS)
    throw new HttpError(400, "This sign-in answer does not belong to a sign-in Toolroom started (or it expired): start it again.", "unknown_state");
  flows.delete(state);
  const config = httpServer(flow.server);
  const failed = query.get("error");
  await flow.provider.noteStep({
    kind: "callback",
    method: "GET",
    url: maskUrl(`${CALLBACK_PATH}?${query.toString()}`),
    ...(failed ? { error: `${failed}${query.get("error_description") ? `: ${query.get("error_description")}` : ""}` } : {}),
  });
  // The page the sign-in started from may already name the server (the Sources view's
  // ?server=), or an earlier sign-in's outcome: set, not appended, so each is said once.
  const back = (outcome: string) => {
    const url = new URL(flow.returnTo, "http://toolroom.invalid");
    url.searchParams.set("server", flow.server);
    url.searchParams.set("signIn", outcome);
    return `${url.pathname}${url.search}${url.hash}`;
  };
  const code = query.get("code");
  if (failed || !code) {
    await audit("mcp.sign-in-refused", flow.server, { error: failed ?? "no code" });
    return back(failed ? "refused" : "no-code");
  }
  await auth(flow.provider, { serverUrl: config.url, authorizationCode: code, fetchFn: flow.provider.recordingFetch({ fresh: false }) });
  await reloadRegistryNow([`mcpServers.${flow.server} (signed in)`], flow.server, "signed in");
  await audit("mcp.signed-in", flow.server);
  return back("done");
}

/**
 * Signs out: the tokens are revoked at the authorization server when it offers revocation
 * (RFC 7009), and forgotten here in any case. The registration and the flow log stay.
 */
export async function signOut(name: string): Promise<{ revokedAtServer: boolean }> {
  const config = httpServer(name);
  const revokedAtServer = await revokeMcpTokens(name, config);
  await writeMcpOAuth(name, config.url, { tokens: undefined, codeVerifier: undefined });
  await providerFor(name, config, "").noteStep({
    kind: "sign-out",
    method: "-",
    url: config.url,
    note: revokedAtServer ? "tokens revoked at the authorization server and forgotten here" : "tokens forgotten here (the server offers no revocation)",
  });
  await reloadRegistryNow([`mcpServers.${name} (signed out)`], name, "signed out");
  await audit("mcp.signed-out", name, { revokedAtServer });
  return { revokedAtServer };
}
