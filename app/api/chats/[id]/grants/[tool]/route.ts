import { z } from "zod";
import { HttpError } from "@/lib/server/http/http-error";
import { handle, routeParams } from "@/lib/server/http/route";
import { chatIdSchema } from "@/lib/server/chat/chat-request";
import { revokeGrant } from "@/lib/db/queries";
import { visibleChat } from "@/lib/server/chat/chat-access";

const paramsSchema = z.object({ id: chatIdSchema, tool: z.string().min(1).max(200) });

/** Revokes "approve for this chat": later calls of the tool ask again. */
export const DELETE = handle("member", async (_request: Request, { params }: { params: Promise<{ id: string; tool: string }> }) => {
  const { id, tool } = await routeParams(params, paramsSchema);
  if (!(await visibleChat(id))) throw new HttpError(404, `Chat ${id} does not exist.`, "unknown_chat");
  await revokeGrant(id, tool);
  return new Response(null, { status: 204 });
});
