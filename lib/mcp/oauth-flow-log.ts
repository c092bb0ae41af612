/** What one step of an OAuth flow was, as the debug view names it. */
export type OAuthStepKind =
  | "mcp-request"
  | "protected-resource-metadata"
  | "authorization-server-metadata"
  | "registration"
  | "authorization"
  | "callback"
  | "token-exchange"
  | "refresh"
  | "revocation"
  | "sign-out"
  | "other";

/** One step of a flow (a request and its response, or the browser's part), secrets masked. */
export interface OAuthFlowStep {
  at: string;
  kind: OAuthStepKind;
  method: string;
  url: string;
  status?: number;
  /** The request's body (form or JSON), masked. */
  request?: unknown;
  /** The response's JSON body (metadata documents, registration, token responses, errors), masked. */
  body?: unknown;
  /** The resource server's challenge on a 401/403: where the flow got its metadata URL and scope. */
  wwwAuthenticate?: string;
  error?: string;
  note?: string;
}

/** Steps kept per server: the last flow or two, not a growing history. */
export const FLOW_STEPS_KEPT = 60;

// Values that must never reach the log readable: tokens, codes, verifiers, client secrets, the CSRF state.
const SECRET_KEYS = new Set([
  "access_token",
  "refresh_token",
  "id_token",
  "token",
  "client_secret",
  "code",
  "code_verifier",
  "assertion",
  "client_assertion",
  "registration_access_token",
  "state",
  "subject_token",
]);

/** A secret shown as its length only: enough to tell "one came back" from "empty". */
function masked(value: unknown): string {
  return `•••• (${String(value).length} chars)`;
}

/** A JSON value with every secret field masked, however deep.
 * @internal Exported for its tests: knip --production allows it. */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_KEYS.has(k) && v !== null && v !== undefined ? masked(v) : maskSecrets(v)]));
}

/** A URL with its secret query parameters masked (the authorization request's state, the callback's code). */
export function maskUrl(url: string): string {
  // A path (the callback route as this app names it) is masked the same way as a full URL.
  const relative = !URL.canParse(url);
  const parsed = new URL(url, "http://relative.invalid");
  for (const key of [...parsed.searchParams.keys()]) if (SECRET_KEYS.has(key)) parsed.searchParams.set(key, masked(parsed.searchParams.get(key)));
  return relative ? `${parsed.pathname}${parsed.search}` : parsed.toString();
}

function parseBody(text: string, type: string): Record<string, unknown> | undefined {
  if (!text) return undefined;
  if (type.includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(text));
  try {
    const json = JSON.parse(text) as unknown;
    return typeof json === "object" && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Which part of the flow a request is, from its URL and body.
 * @internal Exported for its tests: knip --production allows it. */
export function stepKind(method: string, url: string, body: Record<string, unknown> | undefined, serverUrl: string): OAuthStepKind {
  const path = URL.canParse(url) ? new URL(url).pathname : url;
  if (path.includes("/.well-known/oauth-protected-resource")) return "protected-resource-metadata";
  if (path.includes("/.well-known/oauth-authorization-server") || path.includes("/.well-known/openid-configuration")) return "authorization-server-metadata";
  if (body?.grant_type === "authorization_code") return "token-exchange";
  if (body?.grant_type === "refresh_token") return "refresh";
  if (method === "POST" && body && ("token_type_hint" in body || /revoke|revocation/.test(path))) return "revocation";
  if (method === "POST" && body && Array.isArray(body.redirect_uris)) return "registration";
  if (url.split("?")[0] === serverUrl.split("?")[0]) return "mcp-request";
  return "other";
}

/** The part of a JSON-RPC request people recognise: which method it was. */
function rpcMethod(body: Record<string, unknown> | undefined): string | undefined {
  return typeof body?.method === "string" ? body.method : undefined;
}

/**
 * A fetch for the SDK's auth and transport that hands each request of the flow to `onStep` as it
 * ends, so the log is stored as it grows (a flow that dies midway keeps what happened). Metadata documents, registration and token responses are kept, masked; an MCP
 * request is kept only when it was refused (401/403), with its challenge.
 */
export function recordingFetch(options: {
  serverUrl: string;
  onStep: (step: OAuthFlowStep) => Promise<void>;
  fetch?: typeof fetch;
}): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  const send = options.fetch ?? fetch;
  return async (input, init) => {
    const request = new Request(input, init);
    const requestText = request.body ? await request.clone().text() : "";
    const requestBody = parseBody(requestText, request.headers.get("content-type") ?? "");
    const kind = stepKind(request.method, request.url, requestBody, options.serverUrl);
    const step: OAuthFlowStep = { at: new Date().toISOString(), kind, method: request.method, url: maskUrl(request.url) };
    if (kind === "mcp-request") step.note = rpcMethod(requestBody);
    else if (requestBody) step.request = maskSecrets(requestBody);
    let keep = kind !== "mcp-request";
    try {
      const response = await send(request);
      step.status = response.status;
      const challenge = response.headers.get("www-authenticate");
      if (challenge && (response.status === 401 || response.status === 403)) {
        step.wwwAuthenticate = challenge;
        keep = true;
      }
      if (keep && (response.headers.get("content-type") ?? "").includes("json")) {
        step.body = maskSecrets(
          await response
            .clone()
            .json()
            .catch(() => undefined),
        );
      }
      return response;
    } catch (error) {
      step.error = (error as Error).message;
      keep = true;
      throw error;
    } finally {
      if (keep) await options.onStep(step).catch(() => {});
    }
  };
}
