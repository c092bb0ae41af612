import "server-only";
import { toNextJsHandler } from "better-auth/next-js";
import { HttpError } from "@/lib/server/http/http-error";
import { accountLockedFor, clearFailures, recordFailure } from "./attempts";
import { authServer } from "./server";
import { authRequired } from "./who";

/**
 * /api/auth/* — better-auth's own endpoints (sign-in, sign-out, session), with one check added in
 * front of the email sign-in: too many wrong passwords for the account is a 429 whatever the address.
 */
export async function authRoute(request: Request): Promise<Response> {
  if (!authRequired()) throw new HttpError(404, "Sign-in is off on this server (loopback, SQLite): there is nobody to sign in as.", "auth_off");
  const auth = await authServer();
  const { GET, POST } = toNextJsHandler(auth);
  if (request.method !== "POST") return GET(request);
  if (!new URL(request.url).pathname.endsWith("/sign-in/email")) return POST(request);
  const email = await emailOf(request);
  if (email) {
    const wait = await accountLockedFor(email);
    if (wait > 0)
      throw new HttpError(429, `Too many attempts for this account: wait ${wait} s and try again.`, "too_many_attempts", { "Retry-After": String(wait) });
  }
  const response = await POST(request);
  if (email && response.status === 401) await recordFailure(email);
  else if (email && response.ok) await clearFailures(email);
  if (response.status === 429) return tooMany(response);
  return response;
}

async function emailOf(request: Request): Promise<string | null> {
  try {
    const body = (await request.clone().json()) as { email?: unknown };
    return typeof body.email === "string" ? body.email : null;
  } catch {
    return null;
  }
}

/** better-auth's own 429 (too many from one address) in the one error shape, with its wait. */
function tooMany(response: Response): Response {
  const wait = response.headers.get("x-retry-after") ?? response.headers.get("retry-after") ?? "60";
  return new HttpError(429, `Too many attempts from this address: wait ${wait} s and try again.`, "too_many_attempts", { "Retry-After": wait }).toResponse();
}
