import { listChats } from "@/lib/db/queries";

export async function GET() {
  const chats = await listChats();
  return Response.json({ chats: chats.map((c) => ({ ...c, createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString() })) });
}
