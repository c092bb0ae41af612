import "server-only";
import { HttpError } from "@/lib/server/http/http-error";
import { securityConfig } from "@/lib/security/config";
import { getSettings } from "@/lib/settings";
import { audit } from "./audit";
import { addFirstAdmin } from "./people";
import { authServer } from "./server";
import { authRequired } from "./who";

/**
 * The first visit of a server with sign-in and no user yet: the visitor makes the first admin and
 * is signed in as them. Only on a loopback bind — whoever reaches a network-bound server first is
 * not to be trusted with it; there `toolroom users add` on the server's machine makes the first one.
 */
export async function makeFirstAdmin(request: Request, input: { email: string; password: string }): Promise<Response> {
  if (!authRequired()) throw new HttpError(404, "Sign-in is off on this server.", "auth_off");
  if (!securityConfig(getSettings()).loopback)
    throw new HttpError(
      403,
      "This server is reachable from the network: make the first admin on its machine with `toolroom users add EMAIL --role admin --password-stdin`.",
      "not_loopback",
    );
  const admin = await addFirstAdmin(input);
  // Nobody was signed in to make them: the first admin is their own maker.
  await audit("user.added", admin.email, { role: admin.role, from: "first-admin" }, admin.email);
  const auth = await authServer();
  return auth.api.signInEmail({ body: input, headers: request.headers, asResponse: true });
}
