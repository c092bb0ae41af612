/**
 * State-changing endpoints refuse cross-origin requests: a page on another site must not be able
 * to run tools on this localhost server. Browsers send `Origin` (and `Sec-Fetch-Site`) on POSTs;
 * a request without them (curl, the CLI) is not a browser on another site.
 */
export function crossOriginRefusal(request: Request): string | null {
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return `cross-site request refused (Sec-Fetch-Site: ${site})`;
  const origin = request.headers.get("origin");
  if (!origin) return null;
  const host = request.headers.get("host");
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return `malformed Origin header: ${origin}`;
  }
  return host && originHost === host ? null : `cross-origin request refused (Origin ${origin}, host ${host ?? "unknown"})`;
}
