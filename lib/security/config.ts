// What the request checks need from settings, resolved once per process and shared by the
// proxy, `npm start` and `toolroom doctor` so all three agree on what "loopback" means.
import { databaseKind, DEFAULT_DATABASE_URL } from "@/lib/db/database-url.mjs";
import type { Settings } from "@/lib/settings/schema";
import { isLoopbackBind, isWildcardBind } from "./host";

export interface SecurityConfig {
  /** The address the server listens on: $HOST, else settings server.host. */
  bindHost: string;
  loopback: boolean;
  tokenRequired: boolean;
  /** The token requests must carry; undefined when none is set (start.mjs generates one). */
  token: string | undefined;
  /** Requests need a signed-in person or an API token (see lib/server/auth). */
  authRequired: boolean;
  /** Host names beyond localhost, 127.0.0.1 and [::1]. */
  allowedHosts: string[];
}

export function securityConfig(settings: Settings, env: Record<string, string | undefined> = process.env): SecurityConfig {
  const bindHost = env.HOST?.trim() || settings.server.host;
  const loopback = isLoopbackBind(bindHost);
  // A server bound to one concrete non-loopback address is reached by that address.
  const allowedHosts = [...settings.server.allowedHosts];
  if (!loopback && !isWildcardBind(bindHost)) allowedHosts.push(bindHost);
  // A team's store is shared, and so is a server others can reach: both need to know who asks.
  const shared = databaseKind(env.DATABASE_URL || env.TOOLROOM_DATABASE__URL || settings.database.url || DEFAULT_DATABASE_URL) === "postgresql";
  const authRequired = settings.auth.required ?? (shared || !loopback);
  // Off loopback sign-in guards the server (start refuses it without); the access token, a shared
  // secret for one developer's server, is on only when switched on.
  const tokenRequired = settings.server.requireToken ?? false;
  return { bindHost, loopback, tokenRequired, token: settings.server.token || undefined, authRequired, allowedHosts };
}

/** Why the server must not start with these settings, or null. */
export function startupProblem(config: SecurityConfig): string | null {
  if (!config.loopback && !config.authRequired) {
    return `server.host is ${config.bindHost}, which other machines can reach, and auth.required is false. Anyone on the network could read files, run tools and approve calls. Remove auth.required: false (people sign in; add them with \`toolroom users add\`), or bind to 127.0.0.1.`;
  }
  return null;
}
