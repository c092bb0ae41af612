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

// Query parameters that carry credentials: `?api-key=`, `?access_token=`, `&sig=`, `?password=`.
const SECRET_PARAM = /key|token|secret|passw|pwd|auth|credential|^sig$|signature/i;
const URL_PREFIX = /^([a-z][a-z0-9+.-]*:\/\/)(?:([^/?#@\s]*)@)?/i;
/** URLs inside free text (an error message that echoes the request). */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/** The credentials a URL carries: its userinfo (a password, or a user alone, often a token) and secret-looking query values. */
export function urlSecrets(url: string): string[] {
  const out: string[] = [];
  const info = URL_PREFIX.exec(url)?.[2];
  if (info) out.push(info.includes(":") ? info.slice(info.indexOf(":") + 1) : info);
  const query = url.includes("?") ? url.slice(url.indexOf("?") + 1).split("#")[0]! : "";
  for (const pair of query.split(/[&;]/)) {
    const eq = pair.indexOf("=");
    if (eq > 0 && SECRET_PARAM.test(decoded(pair.slice(0, eq)))) out.push(pair.slice(eq + 1));
  }
  return out.filter((secret) => secret.length > 0);
}

/** `url` with its userinfo password (or lone user) and secret-looking query values masked; the rest kept as written. */
export function maskUrl(url: string): string {
  const withInfo = url.replace(URL_PREFIX, (whole, scheme: string, info: string | undefined) => {
    if (!info) return whole;
    const colon = info.indexOf(":");
    return `${scheme}${colon >= 0 ? `${info.slice(0, colon)}:${maskValue(info.slice(colon + 1))}` : maskValue(info)}@`;
  });
  const q = withInfo.indexOf("?");
  if (q < 0) return withInfo;
  const [query, ...fragment] = withInfo.slice(q + 1).split("#");
  const masked = query!.replace(/(^|[&;])([^=&;]+)=([^&;]*)/g, (whole, sep: string, name: string, value: string) =>
    value && SECRET_PARAM.test(decoded(name)) ? `${sep}${name}=${maskValue(value)}` : whole,
  );
  return [`${withInfo.slice(0, q)}?${masked}`, ...fragment].join("#");
}

/** Every URL in `text` with its credentials masked. */
export function maskUrlsIn(text: string): string {
  return text.replace(URL_IN_TEXT, maskUrl);
}

/** A deep copy with every value under a secret-looking key (and header values) masked. */
export function maskSecrets<T>(value: T, underSecret = false): T {
  if (Array.isArray(value)) return (value as unknown[]).map((v) => maskSecrets(v, underSecret)) as T;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const secret = underSecret || isSecretKey(key) || key === "headers" || key === "env";
      out[key] = secret && !isPlainObject(child) && !Array.isArray(child) ? maskValue(child) : maskSecrets(child, secret);
    }
    return out as T;
  }
  if (underSecret) return maskValue(value) as T;
  return (typeof value === "string" && value.includes("://") ? maskUrlsIn(value) : value) as T;
}

/** Every secret string in the settings, to scrub from text shown to people (provider errors). */
export function collectSecrets(value: unknown, underSecret = false, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => collectSecrets(v, underSecret, out));
  else if (isPlainObject(value)) {
    for (const [key, child] of Object.entries(value)) collectSecrets(child, underSecret || isSecretKey(key) || key === "headers", out);
  } else if (typeof value === "string") {
    if (underSecret && value.length >= 4) out.push(value);
    else if (value.includes("://")) for (const url of value.match(URL_IN_TEXT) ?? []) out.push(...urlSecrets(url).filter((secret) => secret.length >= 4));
  }
  return out;
}

export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join(maskValue(secret));
  return out;
}
