import "server-only";
import { HttpError } from "@/lib/server/http/http-error";
import type { Person } from "./person";
import { mayAct, type Access } from "./roles";
import { authRequired, whoIs } from "./who";

/** The challenge MCP clients read to start their sign-in (RFC 6750); API tokens are bearer tokens. */
const MCP_CHALLENGE = { "WWW-Authenticate": 'Bearer realm="toolroom", error="invalid_token"' };

/**
 * The one check every API route makes before it runs: null when this server has no sign-in (the
 * loopback default) or the route is public; the person otherwise. No person is a 401, too weak a
 * role a 403 naming the role needed.
 */
export async function admit(request: Request, access: Access): Promise<Person | null> {
  if (access === "public" || !authRequired()) return null;
  const person = await whoIs(request.headers);
  if (!person) {
    const mcp = new URL(request.url).pathname.startsWith("/api/mcp");
    throw new HttpError(
      401,
      "Sign in first: open /sign-in in the browser, or send Authorization: Bearer <token> (`toolroom tokens create`).",
      "unauthenticated",
      mcp ? MCP_CHALLENGE : {},
    );
  }
  if (!mayAct(person.role, access)) throw new HttpError(403, `This needs the ${access} role; ${person.email} is a ${person.role}.`, "forbidden");
  return person;
}
