// What the request checks need from settings, resolved once per process and shared by the
// proxy, `npm start` and `toolroom doctor` so all three agree on what "loopback" means.
import type { Settings } from "@/lib/settings/schema";
import { isLoopbackBind, isWildcardBind } from "./host";

export interface SecurityConfig {
  /** The address the server listens on: $HOST, else settings server.host. */
  bindHost: string;
  loopback: boolean;
  tokenRequired: boolean;
  /** The token requests must carry; undefined when none is set (start.mjs generates one). */
  token: string | undefined;
  /** Host names beyond localhost, 127.0.0.1 and [::1]. */
  allowedHosts: string[];
}

export function securityConfig(settings: Settings, env: Record<string, string | undefined> = process.env): SecurityConfig {
  const bindHost = env.HOST?.trim() || settings.server.host;
  const loopback = isLoopbackBind(bindHost);
  // Off loopback the token is on unless switched off (which start refuses); on loopback it is off
  // unless switched on.
  const tokenRequired = settings.server.requireToken ?? !loopback;
  // A server bound to one concrete non-loopback address is reached by that address.
  const allowedHosts = [...settings.server.allowedHosts];
  if (!loopback && !isWildcardBind(bindHost)) allowedHosts.push(bindHost);
  return { bindHost, loopback, tokenRequired, token: settings.server.token || undefined, allowedHosts };
}

/** Why the server must not start with these settings, or null. */
export function startupProblem(config: SecurityConfig): string | null {
  if (!config.loopback && !config.tokenRequired) {
    return `server.host is ${config.bindHost}, which other machines can reach, and server.requireToken is false. Anyone on the network could read files and run tools. Remove requireToken: false (a token is generated at start), or bind to 127.0.0.1.`;
  }
  return null;
}
