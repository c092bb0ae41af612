import "server-only";
import { toNextJsHandler } from "better-auth/next-js";
import { HttpError } from "@/lib/server/http/http-error";
import { getSettings } from "@/lib/settings";
import { accountLockedFor, clearFailures, recordFailure } from "./attempts";
import { discoveryUrl } from "./oidc";
import { authServer } from "./server";
import { authRequired } from "./who";

/**
 * /api/auth/* — better-auth's own endpoints (sign-in, sign-out, session), with one check added in
 * front of the email sign-in: too many wrong passwords for the account is a 429 whatever the address,
 * and an OpenID provider that cannot be reached is said to be so.
 */
export async function authRoute(request: Request): Promise<Response> {
  if (!authRequired()) throw new HttpError(404, "Sign-in is off on this server (loopback, SQLite): there is nobody to sign in as.", "auth_off");
  const auth = await authServer();
  const { GET, POST } = toNextJsHandler(auth);
  if (request.method !== "POST") return GET(request);
  const pathname = new URL(request.url).pathname;
  if (pathname.endsWith("/sign-in/social")) {
    // better-auth would also take an ID token posted to it, with no code, PKCE or nonce of ours
    // behind it (a token leaked from a log would do): Toolroom's sign-in goes through the provider.
    if ((await bodyOf(request)).idToken !== undefined)
      throw new HttpError(400, "Sign in through the OpenID provider (its button on /sign-in): an ID token posted here is not taken.", "id_token_refused");
    return unreachableProvider(await POST(request));
  }
  if (!pathname.endsWith("/sign-in/email")) return POST(request);
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

/** The JSON body, read from a copy so better-auth still gets the request whole; {} when it is not an object. */
async function bodyOf(request: Request): Promise<Record<string, unknown>> {
  const body: unknown = await request
    .clone()
    .json()
    .catch(() => null);
  return typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
}

async function emailOf(request: Request): Promise<string | null> {
  const { email } = await bodyOf(request);
  return typeof email === "string" ? email : null;
}

/** better-auth's own 429 (too many from one address) in the one error shape, with its wait. */
function tooMany(response: Response): Response {
  const wait = response.headers.get("x-retry-after") ?? response.headers.get("retry-after") ?? "60";
  return new HttpError(429, `Too many attempts from this address: wait ${wait} s and try again.`, "too_many_attempts", { "Retry-After": wait }).toResponse();
}

/**
 * better-auth registers the OpenID provider only once its discovery document has answered (it
 * tries again at each sign-in), and until then calls it "not found": say what is wrong instead.
 */
async function unreachableProvider(response: Response): Promise<Response> {
  const oidc = getSettings().auth.oidc;
  if (response.status !== 404 || !oidc) return response;
  const body = (await response
    .clone()
    .json()
    .catch(() => ({}))) as { code?: string };
  if (body.code !== "PROVIDER_NOT_FOUND") return response;
  return new HttpError(
    502,
    `${oidc.name} sign-in is unavailable: its issuer did not answer at ${discoveryUrl(oidc)}. Sign in with your password, or try again later.`,
    "oidc_unavailable",
  ).toResponse();
}
