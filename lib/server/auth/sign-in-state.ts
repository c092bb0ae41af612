import "server-only";
import { securityConfig } from "@/lib/security/config";
import { getSettings } from "@/lib/settings";
import { OIDC_PROVIDER_ID } from "./oidc";
import { hasUsers } from "./people";
import { authRequired, whoIs } from "./who";

/** What the sign-in page shows: nothing (off, signed in), the first-admin form (loopback, no users), or the sign-in form. */
export async function signInState(headers: Headers): Promise<"off" | "signed-in" | "first-admin" | "sign-in"> {
  if (!authRequired()) return "off";
  if (await whoIs(headers)) return "signed-in";
  if (securityConfig(getSettings()).loopback && !(await hasUsers())) return "first-admin";
  return "sign-in";
}

/** The OpenID provider's button on the sign-in page, when auth.oidc names one. */
export function oidcChoice(): { providerId: string; name: string } | null {
  const oidc = getSettings().auth.oidc;
  return oidc ? { providerId: OIDC_PROVIDER_ID, name: oidc.name } : null;
}
