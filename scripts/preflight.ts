// Fails start-up with a one-paragraph message, never a bare stack: bad settings, a broken built-in,
// two packages registering one tool name, a network-reachable bind without an access token.
import { randomBytes } from "node:crypto";
import { adoptDatabaseUrl, DatabaseUrlError } from "@/lib/db/url";
import { loadRegistry } from "@/lib/server/runtime/registry";
import { securityConfig, startupProblem } from "@/lib/security/config";
import { SettingsError } from "@/lib/settings/errors";
import { loadSettings } from "@/lib/settings/load";
import { RegistryError } from "@/lib/tools/errors";

export interface Preflight {
  host: string;
  port: number;
  /** Set when requests must carry a token; the server process gets it as TOOLROOM_SERVER__TOKEN. */
  token: string | undefined;
}

export async function preflight(): Promise<Preflight> {
  try {
    const { settings } = loadSettings();
    adoptDatabaseUrl(settings.database.url);
    // Only its failure matters here: the MCP servers it started stop now, not with npm start.
    const registry = await loadRegistry({ settings, log: () => {} });
    await registry.close?.();
    const security = securityConfig(settings);
    const problem = startupProblem(security);
    if (problem) {
      console.error(`toolroom: cannot start. ${problem}`);
      process.exit(2);
    }
    // Generated here, not in the server, so start.mjs can print it and hand the same one over.
    const token = security.tokenRequired ? (security.token ?? randomBytes(24).toString("base64url")) : undefined;
    return { host: security.bindHost, port: Number(process.env.PORT ?? 3000), token };
  } catch (error) {
    if (error instanceof SettingsError || error instanceof RegistryError || error instanceof DatabaseUrlError) {
      console.error(`toolroom: cannot start. ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
}
