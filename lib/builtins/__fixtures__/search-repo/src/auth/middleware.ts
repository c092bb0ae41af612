import { verifyAccessToken } from "./tokens";

/** True when the Authorization header carries a bearer token that verifies. */
export function requireAuth(header: string | undefined, secret: string): boolean {
  if (!header?.startsWith("Bearer ")) return false;
  // verify the access token; a token that fails to verify is treated like no token at all
  const subject = verifyAccessToken(header.slice("Bearer ".length), secret);
  return subject !== null;
}
