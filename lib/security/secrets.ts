// Keeps keys out of text shown to people: provider errors often echo the request, headers and all.
import { collectSecrets, maskUrlsIn, maskValue, scrubSecrets } from "@/lib/settings/mask";
import type { Settings } from "@/lib/settings/schema";

/** Environment variables whose values are credentials (provider SDKs read OPENAI_API_KEY and co. themselves). */
const SECRET_ENV = /(KEY|TOKEN|SECRET|PASSWORD)$/i;

/** Every secret this process knows: settings values under secret-looking keys, headers, env credentials. */
export function knownSecrets(settings: Settings, env: Record<string, string | undefined> = process.env): string[] {
  const fromEnv = Object.entries(env)
    .filter(([name, value]) => SECRET_ENV.test(name) && typeof value === "string" && value.length >= 8)
    .map(([, value]) => value as string);
  const mcpEnv = Object.values(settings.mcpServers).flatMap((server) => ("env" in server && server.env ? Object.values(server.env) : []));
  // Longest first, so a secret that contains another is masked whole.
  return [...new Set([...collectSecrets(settings), ...mcpEnv.filter((v) => v.length >= 8), ...fromEnv])].sort((a, b) => b.length - a.length);
}

/** Credentials that look like credentials even when this process never saw them. */
const CREDENTIAL_SHAPES: readonly RegExp[] = [
  /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b((?:x-api-key|api[-_]?key|authorization)["']?\s*[:=]\s*["']?)[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b(sk-(?:ant-|proj-)?)[A-Za-z0-9_-]{12,}/g,
];

/** `text` with known secrets masked (`••••9f`), URL credentials masked, and credential-shaped strings cut to their prefix. */
export function scrubText(text: string, secrets: readonly string[]): string {
  // URLs first, so a URL's password this process never saw is masked as a password, not left whole.
  let out = scrubSecrets(maskUrlsIn(text), secrets);
  for (const shape of CREDENTIAL_SHAPES) out = out.replace(shape, (_match, prefix: string) => `${prefix}${maskValue("")}`);
  return out;
}

/**
 * A JSON value with `scrubText` applied to each of its strings. String by string, never as JSON
 * text: a secret met across an escape (`\none` holds "none") would cut the JSON in half.
 */
export function scrubValue<T>(value: T, secrets: readonly string[]): T {
  return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === "string" ? scrubText(v, secrets) : v))) as T;
}

/** For chat: a provider error message safe to show and to store. */
export function scrubProviderError(message: string, settings: Settings): string {
  return scrubText(message, knownSecrets(settings));
}
