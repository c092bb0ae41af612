// Next fails inside its router on a path it cannot percent-decode (`/api/chats/%ff`) and answers a
// bare 500; the proxy refuses such a path first, with the reason.
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
