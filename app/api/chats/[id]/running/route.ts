import { z } from "zod";
import { chatIdSchema } from "@/lib/server/chat/chat-request";
import { requireVisibleChat } from "@/lib/server/chat/chat-access";
import { runningCalls } from "@/lib/server/chat/running-calls";
import { handle, routeParams } from "@/lib/server/http/route";

/** The chat's tool calls running now, with the progress their tools reported; polled by the running card. */
export const GET = handle("viewer", async (_request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await routeParams(params, z.object({ id: chatIdSchema }));
  await requireVisibleChat(id);
  return Response.json({ calls: runningCalls(id) }, { headers: { "Cache-Control": "no-store" } });
});
