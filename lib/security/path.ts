// Paths the proxy answers itself, because Next's own answer would skip it: an undecodable path
// (`/api/chats/%ff`) fails inside Next's router with a bare 500, and Next's trailing-slash 308
// is sent before the proxy runs, without the security headers.
const MAX_SHOWN = 120;

/** Why `pathname` cannot be decoded as UTF-8 percent-encoding, or null when it can. */
export function undecodablePath(pathname: string): string | null {
  try {
    decodeURIComponent(pathname);
    return null;
  } catch {
    const shown = pathname.length > MAX_SHOWN ? `${pathname.slice(0, MAX_SHOWN)}…` : pathname;
    return `Bad Request: the address ${shown} is not valid percent-encoded UTF-8.`;
  }
}

/** `/tools/` → `/tools`: the same-origin path a trailing-slash address is redirected to, or null. */
export function withoutTrailingSlash(pathname: string): string | null {
  if (pathname === "/" || !pathname.endsWith("/")) return null;
  // `/tools//` and `//`: never a protocol-relative `//host` Location.
  return `/${pathname.replace(/^\/+|\/+$/g, "")}`;
}
