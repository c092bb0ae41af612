import "server-only";
import type { BetterAuthOptions } from "better-auth";
import { genericOAuth } from "better-auth/plugins";
import type { OidcSettings } from "@/lib/settings/schema";
import { audit } from "./audit";

// Sign-in with the OpenID provider of `auth.oidc`, through better-auth's generic OAuth plugin: its
// providers are social providers, started at /api/auth/sign-in/social and answered at
// /api/auth/callback/<id>. A person is matched by the email the provider has verified.

/** better-auth's id for the provider: the redirect URI to register is <Toolroom>/api/auth/callback/oidc. */
export const OIDC_PROVIDER_ID = "oidc";

export function discoveryUrl(oidc: OidcSettings): string {
  return `${oidc.issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
}

export function oidcPlugin(oidc: OidcSettings) {
  return genericOAuth({
    config: [
      {
        providerId: OIDC_PROVIDER_ID,
        name: oidc.name,
        discoveryUrl: discoveryUrl(oidc),
        // Who someone is comes from the ID token: without the issuer's keys to check it, no provider.
        requireIdTokenVerification: true,
        clientId: oidc.clientId,
        clientSecret: oidc.clientSecret,
        // client_secret_basic: the method a client registered without naming one gets (OIDC Registration §2).
        authentication: "basic",
        scopes: ["openid", "email", "profile"],
        pkce: true,
        disableSignUp: !oidc.allowSignUp,
      },
    ],
  });
}

type ValidateUserInfo = NonNullable<NonNullable<BetterAuthOptions["user"]>["validateUserInfo"]>;

/**
 * better-auth's gate before it makes, links or signs in a person from the provider: an email the
 * provider has not verified names nobody (anyone may type any address into an account there).
 */
export const refuseUnverifiedEmail: ValidateUserInfo = ({ user, source }) => {
  if (source.oauth?.providerId !== OIDC_PROVIDER_ID || user.emailVerified === true) return;
  return { error: "email_not_verified", errorDescription: "The provider has not verified this email address." };
};

/**
 * The role a newcomer gets, and the audit line for them. better-auth makes people only when the
 * provider signs someone up (email sign-up is off; `users add` and the first-admin form write their
 * own rows), so every user it creates is one. The role is the setting's, never a claim.
 */
export function oidcSignUpHooks(oidc: OidcSettings): BetterAuthOptions["databaseHooks"] {
  return {
    user: {
      create: {
        before: async (user) => ({ data: { ...user, role: oidc.role } }),
        after: async (user) => audit("user.added", user.email, { role: oidc.role, via: OIDC_PROVIDER_ID }, user.email),
      },
    },
  };
}
