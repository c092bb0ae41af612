import "server-only";
import { randomBytes } from "node:crypto";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { db } from "@/lib/db/client";
import { databaseKind, databaseUrl } from "@/lib/db/url";
import { getSettings } from "@/lib/settings";
import { oidcPlugin, oidcSignUpHooks, refuseUnverifiedEmail } from "./oidc";
import { sessionCookie } from "./session-cookie";

/** Sign-in attempts one address may make in a window (better-auth counts them in the database, so across instances). */
export const SIGN_IN_ATTEMPTS = { window: 60, max: 5 };

function build(secret: string) {
  const settings = getSettings();
  const url = settings.auth.url;
  const oidc = settings.auth.oidc;
  const cookie = sessionCookie(url, process.env.PORT);
  const hosts = ["localhost", "127.0.0.1", "[::1]", ...settings.server.allowedHosts];
  return betterAuth({
    appName: "Toolroom",
    secret,
    // The request gate (proxy.ts) has checked the Host header already; better-auth builds its
    // URLs from the same host the browser used.
    baseURL: url ?? { allowedHosts: hosts.flatMap((h) => [h, `${h}:*`]), protocol: "http", fallback: "http://127.0.0.1" },
    database: prismaAdapter(db(), { provider: databaseKind(databaseUrl()) === "postgresql" ? "postgresql" : "sqlite" }),
    // Accounts come from `toolroom users add` and the first-admin page, never from sign-up (by
    // password; the OpenID provider may sign people up when auth.oidc.allowSignUp says so).
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 8, maxPasswordLength: 128 },
    user: {
      additionalFields: { role: { type: "string", required: false, defaultValue: "member", input: false } },
      validateUserInfo: refuseUnverifiedEmail,
    },
    // An OIDC sign-in joins the account an admin made for that email. The local address needs no
    // verification of its own: no stranger can have claimed it first, since only admins make accounts.
    account: { accountLinking: { enabled: true, requireLocalEmailVerified: false } },
    plugins: oidc ? [oidcPlugin(oidc)] : [],
    databaseHooks: oidc ? oidcSignUpHooks(oidc) : undefined,
    // State errors of a provider's callback (expired, another tab) land on the sign-in page too.
    onAPIError: { errorURL: "/sign-in" },
    session: { expiresIn: settings.auth.sessionDays * 86_400, updateAge: 86_400 },
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 100,
      customRules: {
        "/sign-in/email": SIGN_IN_ATTEMPTS,
        // Starting a sign-in at the OpenID provider guesses nothing (the provider checks passwords):
        // the cap only bounds the pending sign-ins one address can leave, above better-auth's 3 in 10 s.
        "/sign-in/social": { window: 60, max: 30 },
      },
    },
    advanced: {
      cookiePrefix: cookie.prefix,
      useSecureCookies: cookie.secure,
      defaultCookieAttributes: { sameSite: "lax", httpOnly: true },
    },
    telemetry: { enabled: false },
  });
}

type Auth = ReturnType<typeof build>;
const cache = globalThis as unknown as { __toolroomAuth?: Promise<Auth> };

/**
 * The one better-auth instance of this process. Its signing secret is the store's, made by the
 * first instance that needs it, so every instance on one database accepts the same sessions.
 */
export function authServer(): Promise<Auth> {
  cache.__toolroomAuth ??= storeSecret().then(build, (error: unknown) => {
    cache.__toolroomAuth = undefined;
    throw error;
  });
  return cache.__toolroomAuth;
}

async function storeSecret(): Promise<string> {
  const fromEnv = process.env.BETTER_AUTH_SECRET;
  if (fromEnv) return fromEnv;
  const row = await db().serverSecret.upsert({
    where: { name: "auth" },
    create: { name: "auth", value: randomBytes(32).toString("base64url") },
    update: {},
  });
  return row.value;
}
