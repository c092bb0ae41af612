import { handle, requestOrigin } from "@/lib/server/http/route";
import { finishSignIn } from "@/lib/server/mcp-oauth/sign-in";

/** The redirect URI of every sign-in: the state is checked, the code exchanged, the browser sent back. */
export const GET = handle("admin", async (request: Request) => {
  const url = new URL(request.url);
  return Response.redirect(new URL(await finishSignIn(url.searchParams), requestOrigin(request)), 303);
});
