import { createHmac, timingSafeEqual } from "node:crypto";

/** Signs a subject into an access token: base64 subject, a dot, and an HMAC of it. */
export function signAccessToken(subject: string, secret: string): string {
  const body = Buffer.from(subject).toString("base64url");
  const mac = createHmac("sha256", secret).update(body).digest("base64url");
  return `${body}.${mac}`;
}

/** Verifies an access token's HMAC signature; returns the subject or null when it does not verify. */
export function verifyAccessToken(token: string, secret: string): string | null {
  const [body, mac] = token.split(".");
  if (!body || !mac) return null;
  const expected = createHmac("sha256", secret).update(body).digest("base64url");
  const a = Buffer.from(mac);
  const b = Buffer.from(expected);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
  return Buffer.from(body, "base64url").toString();
}
