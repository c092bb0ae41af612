import { z } from "zod";
import { handle, routeParams } from "@/lib/server/http/route";
import { chatIdSchema } from "@/lib/server/chat/chat-request";
import { revokeChatGrant } from "@/lib/server/chat/chat-access";

const paramsSchema = z.object({ id: chatIdSchema, tool: z.string().min(1).max(200) });

/** Revokes "approve for this chat": later calls of the tool ask again. */
export const DELETE = handle("member", async (_request: Request, { params }: { params: Promise<{ id: string; tool: string }> }) => {
  const { id, tool } = await routeParams(params, paramsSchema);
  await revokeChatGrant(id, tool);
  return new Response(null, { status: 204 });
});
