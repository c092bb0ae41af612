import { handle } from "@/lib/server/http/route";
import { visibleChats } from "@/lib/server/chat/chat-access";

export const GET = handle("viewer", async () => {
  const chats = await visibleChats();
  return Response.json({ chats: chats.map((c) => ({ ...c, createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString() })) });
});
