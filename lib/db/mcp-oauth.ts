// Not `server-only` and not the app's shared client: `toolroom mcp login` and the CLI's calls read
// and write these rows too (the CLI runs outside React's server environment). SQLite in WAL mode
// takes the second connection; PostgreSQL a second pool.
import type { PrismaClient } from "@/generated/prisma/client";
import { createClient } from "./engines";
import { databaseUrl } from "./url";

/** What the MCP SDK's client auth keeps for one server; JSON values as the SDK gave them. */
export interface McpOAuthState {
  clientInfo?: unknown;
  tokens?: unknown;
  codeVerifier?: string;
  discovery?: unknown;
  flowLog?: unknown[];
}

const cache = globalThis as unknown as { __toolroomOAuthDb?: PrismaClient };
const client = () => (cache.__toolroomOAuthDb ??= createClient(databaseUrl()));

const parse = (text: string | null) => (text === null ? undefined : (JSON.parse(text) as unknown));

/** The state stored for `server`, if it was for this URL (a server moved elsewhere starts over). */
export async function readMcpOAuth(server: string, serverUrl: string): Promise<McpOAuthState | null> {
  const row = await client().mcpOAuth.findUnique({ where: { server } });
  if (!row || row.serverUrl !== serverUrl) return null;
  return {
    clientInfo: parse(row.clientInfo),
    tokens: parse(row.tokens),
    ...(row.codeVerifier ? { codeVerifier: row.codeVerifier } : {}),
    discovery: parse(row.discovery),
    flowLog: (parse(row.flowLog) as unknown[] | undefined) ?? [],
  };
}

/** Sets the given fields (undefined clears one). */
export async function writeMcpOAuth(server: string, serverUrl: string, patch: Partial<McpOAuthState>): Promise<void> {
  const data: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(patch)) data[key] = value === undefined ? null : typeof value === "string" ? value : JSON.stringify(value);
  const existing = await client().mcpOAuth.findUnique({ where: { server } });
  if (existing && existing.serverUrl !== serverUrl) await client().mcpOAuth.delete({ where: { server } });
  await client().mcpOAuth.upsert({ where: { server }, create: { server, serverUrl, ...data }, update: data });
}

/** Forgets everything about `server` (sign out); true when there was something to forget. */
export async function deleteMcpOAuth(server: string): Promise<boolean> {
  const { count } = await client().mcpOAuth.deleteMany({ where: { server } });
  return count > 0;
}
