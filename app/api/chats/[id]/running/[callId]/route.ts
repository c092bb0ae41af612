import { z } from "zod";
import { chatIdSchema } from "@/lib/server/chat/chat-request";
import { requireVisibleChat } from "@/lib/server/chat/chat-access";
import { cancelCall } from "@/lib/server/chat/running-calls";
import { HttpError } from "@/lib/server/http/http-error";
import { handle, routeParams } from "@/lib/server/http/route";

/** Cancels one running call (DELETE): its tool's signal aborts, an MCP server hears notifications/cancelled. */
export const DELETE = handle("member", async (_request: Request, { params }: { params: Promise<{ id: string; callId: string }> }) => {
  const { id, callId } = await routeParams(params, z.object({ id: chatIdSchema, callId: z.string().min(1).max(200) }));
  await requireVisibleChat(id);
  if (!cancelCall(id, callId)) throw new HttpError(404, "That call is not running (it may have just finished).", "not_running");
  return Response.json({ ok: true });
});
