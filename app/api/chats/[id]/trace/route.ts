import { chatTrace } from "@/lib/server/chat/chat-view";
import { HttpError } from "@/lib/server/http/http-error";
import { handle, routeParams } from "@/lib/server/http/route";
import { chatParamsSchema } from "../schema";

export const GET = handle("viewer", async (_request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await routeParams(params, chatParamsSchema);
  const trace = await chatTrace(id);
  if (!trace) throw new HttpError(404, `Chat ${id} does not exist.`, "unknown_chat");
  return Response.json(trace);
});
