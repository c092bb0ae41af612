import { handle } from "@/lib/server/http/route";
import { oauthStatus } from "@/lib/server/mcp-oauth/sign-in";

/** One remote MCP server's sign-in state and its last flow's steps (secrets masked; tokens never). */
export const GET = handle("viewer", async (_request: Request, { params }: { params: Promise<{ server: string }> }) =>
  Response.json(await oauthStatus((await params).server), { headers: { "Cache-Control": "no-store" } }),
);
