import "server-only";
import { securityConfig } from "@/lib/security/config";
import { bearerToken } from "@/lib/security/token";
import { getSettings } from "@/lib/settings";
import { personOfToken } from "./people";
import type { Person } from "./person";
import { isRole } from "./roles";
import { authServer } from "./server";

/** Whether this server needs to know who asks (settings, PostgreSQL, a reachable bind), read once. */
export function authRequired(): boolean {
  const cache = globalThis as unknown as { __toolroomAuthRequired?: boolean };
  cache.__toolroomAuthRequired ??= securityConfig(getSettings()).authRequired;
  return cache.__toolroomAuthRequired;
}

/**
 * The person behind a request: its `Authorization: Bearer` API token, else its session cookie.
 * The role is read from the user row each time, so `users set-role` holds at the next request.
 */
export async function whoIs(headers: Headers): Promise<Person | null> {
  const bearer = bearerToken(headers.get("authorization"));
  if (bearer !== null) return personOfToken(bearer);
  const auth = await authServer();
  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  const role = (session.user as { role?: string }).role ?? "";
  return { id: session.user.id, email: session.user.email, role: isRole(role) ? role : "viewer" };
}
