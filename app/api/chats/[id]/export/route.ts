import { chatExport } from "@/lib/server/chat/chat-view";
import { HttpError } from "@/lib/server/http/http-error";
import { handle, routeParams } from "@/lib/server/http/route";
import { chatParamsSchema } from "../schema";

export const GET = handle("viewer", async (_request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await routeParams(params, chatParamsSchema);
  const data = await chatExport(id);
  if (!data) throw new HttpError(404, `Chat ${id} does not exist.`, "unknown_chat");
  return new Response(JSON.stringify(data, null, 2), {
    headers: { "content-type": "application/json", "content-disposition": `attachment; filename="toolroom-chat-${id}.json"` },
  });
});
