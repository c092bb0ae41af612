import { chatDetail } from "@/lib/app/chat-view";
import { HttpError } from "@/lib/app/http-error";
import { deleteChat, getChat, updateChat } from "@/lib/db/queries";
import { getSettings } from "@/lib/settings";
import { chatPatchSchema } from "./schema";

type Context = { params: Promise<{ id: string }> };

export async function GET(_request: Request, { params }: Context) {
  const { id } = await params;
  const detail = await chatDetail(id);
  return detail ? Response.json(detail) : new HttpError(404, `Chat ${id} does not exist.`, "unknown_chat").toResponse();
}

export async function PATCH(request: Request, { params }: Context) {
  const { id } = await params;
  const parsed = chatPatchSchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return new HttpError(400, `Invalid change: ${parsed.error.issues[0]?.message ?? "bad body"}`).toResponse();
  if (parsed.data.modelRef && !getSettings().llms[parsed.data.modelRef]) return new HttpError(400, `No model named "${parsed.data.modelRef}" in settings llms.`).toResponse();
  if (!(await getChat(id))) return new HttpError(404, `Chat ${id} does not exist.`, "unknown_chat").toResponse();
  const chat = await updateChat(id, parsed.data);
  return Response.json({ chat });
}

export async function DELETE(_request: Request, { params }: Context) {
  const { id } = await params;
  if (!(await getChat(id))) return new HttpError(404, `Chat ${id} does not exist.`, "unknown_chat").toResponse();
  await deleteChat(id);
  return new Response(null, { status: 204 });
}
