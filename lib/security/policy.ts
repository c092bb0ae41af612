// The whole request gate as one pure function, so proxy.ts only translates its answer.
import type { SecurityConfig } from "./config";
import { checkHost } from "./host";
import { checkOrigin } from "./origin";
import { bearerToken, readCookie, tokenCookie, tokenCookieName, tokensEqual, withoutTokenParam } from "./token";

export interface RequestLike {
  method: string;
  /** Absolute, or a path with query. */
  url: string;
  headers: { get(name: string): string | null };
}

export type Decision =
  { action: "pass" } | { action: "deny"; status: 401 | 403; message: string } | { action: "redirect"; location: string; setCookie: string };

const TOKEN_HELP =
  "Unauthorized: this Toolroom is reachable from the network and needs its access token. Open the URL printed at start (…/?token=…), or send Authorization: Bearer <token>.";

export function decide(request: RequestLike, config: SecurityConfig): Decision {
  const host = checkHost(request.headers.get("host"), config.allowedHosts);
  if (!host.ok) return { action: "deny", status: 403, message: host.reason };

  if (config.tokenRequired) {
    // Fails closed: a server started without start.mjs and without server.token accepts nobody.
    const expected = config.token;
    if (!expected)
      return { action: "deny", status: 401, message: "Unauthorized: a token is required but none is configured; start with `npm start` or set server.token." };
    const url = new URL(request.url, "http://toolroom.invalid");
    const offered = url.searchParams.get("token");
    const method = request.method.toUpperCase();
    if (offered !== null && (method === "GET" || method === "HEAD")) {
      if (!tokensEqual(offered, expected)) return { action: "deny", status: 401, message: "Unauthorized: the token in the URL is not this server's token." };
      return { action: "redirect", location: withoutTokenParam(url), setCookie: tokenCookie(host.host, expected, url.protocol === "https:") };
    }
    const given = bearerToken(request.headers.get("authorization")) ?? readCookie(request.headers.get("cookie"), tokenCookieName(host.host));
    if (given === null || !tokensEqual(given, expected)) return { action: "deny", status: 401, message: TOKEN_HELP };
  }

  const origin = checkOrigin({
    method: request.method,
    path: new URL(request.url, "http://toolroom.invalid").pathname,
    origin: request.headers.get("origin"),
    secFetchSite: request.headers.get("sec-fetch-site"),
    host: host.host,
  });
  if (!origin.ok) return { action: "deny", status: 403, message: origin.reason };
  return { action: "pass" };
}
