import { chatExport } from "@/lib/app/chat-view";
import { HttpError } from "@/lib/app/http-error";

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const data = await chatExport(id);
  if (!data) return new HttpError(404, `Chat ${id} does not exist.`, "unknown_chat").toResponse();
  return new Response(JSON.stringify(data, null, 2), {
    headers: { "content-type": "application/json", "content-disposition": `attachment; filename="toolroom-chat-${id}.json"` },
  });
}
