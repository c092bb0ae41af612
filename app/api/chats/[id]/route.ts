import { chatDetail } from "@/lib/server/chat/chat-view";
import { HttpError } from "@/lib/server/http/http-error";
import { handle, readJson, routeParams } from "@/lib/server/http/route";
import { deleteChat, updateChat } from "@/lib/db/queries";
import { visibleChat } from "@/lib/server/chat/chat-access";
import { getSettings } from "@/lib/settings";
import { chatPatchSchema, chatParamsSchema } from "./schema";

type Context = { params: Promise<{ id: string }> };

const unknownChat = (id: string) => new HttpError(404, `Chat ${id} does not exist.`, "unknown_chat");

export const GET = handle("viewer", async (_request: Request, { params }: Context) => {
  const { id } = await routeParams(params, chatParamsSchema);
  const detail = await chatDetail(id);
  if (!detail) throw unknownChat(id);
  return Response.json(detail);
});

export const PATCH = handle("member", async (request: Request, { params }: Context) => {
  const { id } = await routeParams(params, chatParamsSchema);
  const change = await readJson(request, chatPatchSchema, { maxBytes: 64 * 1024, what: "change" });
  if (change.modelRef && !getSettings().llms[change.modelRef])
    throw new HttpError(400, `No model named "${change.modelRef}" in settings llms.`, "unknown_model");
  if (!(await visibleChat(id))) throw unknownChat(id);
  return Response.json({ chat: await updateChat(id, change) });
});

export const DELETE = handle("member", async (_request: Request, { params }: Context) => {
  const { id } = await routeParams(params, chatParamsSchema);
  if (!(await visibleChat(id))) throw unknownChat(id);
  await deleteChat(id);
  return new Response(null, { status: 204 });
});
