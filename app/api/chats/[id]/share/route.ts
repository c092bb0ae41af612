import { handle, routeParams } from "@/lib/server/http/route";
import { shareChat } from "@/lib/server/chat/chat-access";
import { chatParamsSchema } from "../schema";

type Context = { params: Promise<{ id: string }> };

/** A read-only link to the chat, for anyone signed in who is given it (made once, kept until stopped). */
export const POST = handle("member", async (_request: Request, { params }: Context) => {
  const { id } = await routeParams(params, chatParamsSchema);
  const shareId = await shareChat(id, true);
  return Response.json({ shareId, path: `/shared/${shareId}` });
});

/** Stops sharing: the link answers 404 from now on. */
export const DELETE = handle("member", async (_request: Request, { params }: Context) => {
  const { id } = await routeParams(params, chatParamsSchema);
  await shareChat(id, false);
  return new Response(null, { status: 204 });
});
