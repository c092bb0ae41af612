// Cross-site request refusal for state-changing requests. A page on another site can make a
// browser send a "simple" POST (text/plain, no preflight) here; the browser then always marks it
// with `Origin` and, in current browsers, `Sec-Fetch-Site` — headers page scripts cannot forge.
import { parseHost, type HostPort } from "./host";

/** GET, HEAD and OPTIONS change nothing here; every other method may. */
export function isStateChanging(method: string): boolean {
  return !["GET", "HEAD", "OPTIONS"].includes(method.toUpperCase());
}

const DEFAULT_PORT: Record<string, string> = { "http:": "80", "https:": "443" };

/** Where an OpenID provider sends the browser back after sign-in: reached from its site by design. */
const SIGN_IN_RETURN = "/api/auth/callback/";

/** Whether an `Origin` header names the host the request was sent to (ports normalised per scheme). */
export function originMatchesHost(origin: string, host: HostPort): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const defaultPort = DEFAULT_PORT[url.protocol];
  if (!defaultPort || url.pathname !== "/" || url.search || url.username) return false;
  const originHost = parseHost(url.host);
  if (!originHost) return false;
  const port = (p: string) => (p === "" ? defaultPort : p);
  return originHost.hostname === host.hostname && port(originHost.port) === port(host.port);
}

export type OriginVerdict = { ok: true } | { ok: false; reason: string };

export interface OriginRequest {
  method: string;
  /** The request's path: reads of /api/ are refused to other sites too. */
  path?: string;
  origin: string | null;
  secFetchSite: string | null;
  host: HostPort;
}

/**
 * `Sec-Fetch-Site` decides when the browser sent it (`same-origin`, or `none` for a request the
 * person typed); `Origin` decides otherwise. No Origin and no Sec-Fetch-Site is a command-line
 * client, which is allowed: the host check (and the token, off loopback) already stand in front.
 */
export function checkOrigin(request: OriginRequest): OriginVerdict {
  const site = request.secFetchSite?.trim().toLowerCase() ?? null;
  if (!isStateChanging(request.method)) {
    // A page on another site may link to Toolroom's pages, but not make the browser fetch its API
    // (an <img src="…/api/runs?fresh=1"> repeated would keep the server busy); it cannot read the
    // answer anyway, so only the cost is at stake.
    const embeddedApiRead = request.path?.startsWith("/api/") && !request.path.startsWith(SIGN_IN_RETURN) && (site === "cross-site" || site === "same-site");
    return embeddedApiRead
      ? {
          ok: false,
          reason: `Forbidden: a read of ${request.path} from another site (Sec-Fetch-Site: ${site}); Toolroom's API answers only its own pages and clients outside a browser.`,
        }
      : { ok: true };
  }
  const origin = request.origin?.trim() ?? null;
  const refuse = (why: string): OriginVerdict => ({ ok: false, reason: `Forbidden: ${why}; Toolroom accepts changes only from its own pages.` });

  // cross-site, same-site (another port or subdomain is another origin) and unknown values.
  if (site !== null && site !== "same-origin" && site !== "none") return refuse(`a ${request.method} request from another origin (Sec-Fetch-Site: ${site})`);
  if (origin === null) return { ok: true };
  // `Referrer-Policy: no-referrer` makes browsers send `Origin: null` even on same-origin POSTs,
  // so a null Origin is trusted only when Sec-Fetch-Site vouches for it.
  if (origin === "null") return site !== null ? { ok: true } : refuse("a request with an opaque Origin (null)");
  if (!originMatchesHost(origin, request.host)) return refuse(`a ${request.method} request from ${origin}`);
  return { ok: true };
}
