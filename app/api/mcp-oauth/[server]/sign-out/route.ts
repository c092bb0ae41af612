import { handle } from "@/lib/server/http/route";
import { signOut } from "@/lib/server/mcp-oauth/sign-in";

/** Forgets the server's tokens (revoking them at its authorization server when it offers that). */
export const POST = handle("admin", async (_request: Request, { params }: { params: Promise<{ server: string }> }) =>
  Response.json(await signOut((await params).server)),
);
