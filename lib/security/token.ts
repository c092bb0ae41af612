// The access token that guards a server bound beyond loopback (Jupyter-style): browsers trade
// `?token=` for a cookie once, API and MCP clients send `Authorization: Bearer`.
import type { HostPort } from "./host";

/** Compares without an early exit, so response timing does not reveal how much of a guess matched. */
export function tokensEqual(given: string, expected: string): boolean {
  let diff = given.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) diff |= (given.charCodeAt(i) || 0) ^ expected.charCodeAt(i);
  return diff === 0 && expected.length > 0;
}

/** The bearer token of an `Authorization` header, or null. */
export function bearerToken(header: string | null): string | null {
  const match = header?.match(/^\s*Bearer\s+(\S+)\s*$/i);
  return match?.[1] ?? null;
}

/**
 * One cookie per port: cookies ignore ports, and two Toolrooms on one machine would otherwise
 * keep logging each other out.
 */
export function tokenCookieName(host: HostPort): string {
  return `toolroom-token-${host.port || "80"}`;
}

export function readCookie(header: string | null, name: string): string | null {
  for (const part of header?.split(";") ?? []) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}

/** HttpOnly keeps it from page scripts; SameSite=Strict keeps other sites' requests from carrying it. */
export function tokenCookie(host: HostPort, token: string, secure: boolean): string {
  return `${tokenCookieName(host)}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

/** The same path and query without `token`, for the redirect after the exchange. */
export function withoutTokenParam(url: URL): string {
  const params = new URLSearchParams(url.search);
  params.delete("token");
  const query = params.toString();
  return `${url.pathname}${query ? `?${query}` : ""}`;
}
