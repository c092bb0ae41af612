import { handle } from "@/lib/server/http/route";
import { listChats } from "@/lib/db/queries";

export const GET = handle("viewer", async () => {
  const chats = await listChats();
  return Response.json({ chats: chats.map((c) => ({ ...c, createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString() })) });
});
