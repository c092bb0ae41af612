import { z } from "zod";
import { handle, readJson, requestOrigin } from "@/lib/server/http/route";
import { startSignIn } from "@/lib/server/mcp-oauth/sign-in";

// Only a path of this app: the callback must not become an open redirect.
const bodySchema = z.object({
  returnTo: z
    .string()
    .regex(/^\/(?!\/)[^\s\\]*$/)
    .default("/sources/oauth"),
});

/** Starts a sign-in: answers with the authorization page to open (or `authorized` when a refresh sufficed). */
export const POST = handle("admin", async (request: Request, { params }: { params: Promise<{ server: string }> }) => {
  const { returnTo } = await readJson(request, bodySchema, { maxBytes: 4096 });
  return Response.json(await startSignIn((await params).server, requestOrigin(request), returnTo));
});
