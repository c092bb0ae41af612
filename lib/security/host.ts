// Host-header checks. A DNS-rebinding page reaches this server under the attacker's own name
// (`evil.example` resolving to 127.0.0.1), so the Host header is the one thing that gives it away.

export interface HostPort {
  /** Lower-case, no trailing dot; IPv6 without brackets. */
  hostname: string;
  /** Digits, or "" when the header names none. */
  port: string;
}

const NAME = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/;
const IPV6 = /^[0-9a-f:.]+$/;

/** Parses a Host header (or an allowedHosts entry); null when it is not a plain `name[:port]`. */
export function parseHost(value: string | null | undefined): HostPort | null {
  if (!value) return null;
  const text = value.trim().toLowerCase();
  let hostname: string;
  let rest: string;
  if (text.startsWith("[")) {
    const end = text.indexOf("]");
    if (end < 0) return null;
    hostname = text.slice(1, end);
    rest = text.slice(end + 1);
    if (!IPV6.test(hostname) || !hostname.includes(":")) return null;
  } else {
    const colon = text.indexOf(":");
    // A bare IPv6 address (two or more colons) is not a valid Host header.
    if (colon >= 0 && text.indexOf(":", colon + 1) >= 0) return null;
    hostname = colon >= 0 ? text.slice(0, colon) : text;
    rest = colon >= 0 ? text.slice(colon) : "";
    // `localhost.` is the same name as `localhost`: DNS treats the trailing dot as the root.
    if (hostname.endsWith(".")) hostname = hostname.slice(0, -1);
    if (!NAME.test(hostname)) return null;
  }
  if (rest === "") return { hostname, port: "" };
  const port = rest.slice(1);
  if (!rest.startsWith(":") || !/^\d{1,5}$/.test(port) || Number(port) > 65535) return null;
  return { hostname, port };
}

/** The names a browser on this machine uses for it; no public DNS name can be one of them. */
const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "::1"]);

/** Whether a bind address only listens on this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackBind(host: string): boolean {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
  if (name === "localhost" || name === "::1") return true;
  const octets = name.split(".");
  return octets.length === 4 && octets[0] === "127" && octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255);
}

/** `0.0.0.0` and `::` listen on every interface. */
export function isWildcardBind(host: string): boolean {
  const name = host.trim().replace(/^\[(.*)\]$/, "$1");
  return name === "0.0.0.0" || name === "::" || name === "";
}

/**
 * One allowedHosts entry against a parsed Host: `name` allows any port, `name:port` that port,
 * `.example.com` the domain and its subdomains.
 */
function entryMatches(entry: string, host: HostPort): boolean {
  const trimmed = entry.trim().toLowerCase();
  if (trimmed.startsWith(".")) {
    const domain = parseHost(trimmed.slice(1));
    if (!domain) return false;
    const portOk = domain.port === "" || domain.port === host.port;
    return portOk && (host.hostname === domain.hostname || host.hostname.endsWith(`.${domain.hostname}`));
  }
  const parsed = parseHost(trimmed);
  if (!parsed) return false;
  return parsed.hostname === host.hostname && (parsed.port === "" || parsed.port === host.port);
}

export type HostVerdict = { ok: true; host: HostPort } | { ok: false; reason: string };

/** Loopback names pass on any port; anything else must be listed. */
export function checkHost(header: string | null, allowedHosts: readonly string[]): HostVerdict {
  const host = parseHost(header);
  if (!host) return { ok: false, reason: `Forbidden: the Host header ${JSON.stringify(header ?? "")} is not a valid host name.` };
  if (LOOPBACK_NAMES.has(host.hostname)) return { ok: true, host };
  if (allowedHosts.some((entry) => entryMatches(entry, host))) return { ok: true, host };
  const shown = host.hostname.includes(":") ? `[${host.hostname}]` : host.hostname;
  return {
    ok: false,
    reason: `Forbidden: Toolroom answers only to localhost, 127.0.0.1 and [::1]; add "${shown}" to server.allowedHosts to reach it under that name.`,
  };
}
