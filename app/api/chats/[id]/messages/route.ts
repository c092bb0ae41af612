import { chatMessagesPage } from "@/lib/server/chat/chat-view";
import { HttpError } from "@/lib/server/http/http-error";
import { handle, parseWith, routeParams } from "@/lib/server/http/route";
import { visibleChat } from "@/lib/server/chat/chat-access";
import { chatParamsSchema, olderMessagesQuerySchema } from "../schema";

/** Older messages of a chat, a page at a time, for the chat page as the person scrolls up. */
export const GET = handle("viewer", async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await routeParams(params, chatParamsSchema);
  const { before } = parseWith(olderMessagesQuerySchema, Object.fromEntries(new URL(request.url).searchParams), "query");
  if (!(await visibleChat(id))) throw new HttpError(404, `Chat ${id} does not exist.`, "unknown_chat");
  return Response.json(await chatMessagesPage(id, before));
});
