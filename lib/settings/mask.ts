import { isPlainObject } from "./layers";

const SECRET_KEY = /key|token|secret|password/i;
// Settings about secrets, not secrets: `requireToken`, `maxTokens`.
const NOT_SECRET = /^(require|max|min)/i;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key) && !NOT_SECRET.test(key);
}

/** Masks a secret so a person can still tell which one is set: `sk-…9f` style, never the body. */
export function maskValue(value: unknown): string {
  if (typeof value !== "string" || value.length === 0) return "••••";
  return value.length <= 8 ? "••••" : `••••${value.slice(-2)}`;
}

/** A deep copy with every value under a secret-looking key (and header values) masked. */
export function maskSecrets<T>(value: T, underSecret = false): T {
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, underSecret)) as T;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const secret = underSecret || isSecretKey(key) || key === "headers" || key === "env";
      out[key] = secret && !isPlainObject(child) && !Array.isArray(child) ? maskValue(child) : maskSecrets(child, secret);
    }
    return out as T;
  }
  return (underSecret ? maskValue(value) : value) as T;
}

/** Every secret string in the settings, to scrub from text shown to people (provider errors). */
export function collectSecrets(value: unknown, underSecret = false, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => collectSecrets(v, underSecret, out));
  else if (isPlainObject(value)) {
    for (const [key, child] of Object.entries(value)) collectSecrets(child, underSecret || isSecretKey(key) || key === "headers", out);
  } else if (underSecret && typeof value === "string" && value.length >= 4) out.push(value);
  return out;
}

export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join(maskValue(secret));
  return out;
}
