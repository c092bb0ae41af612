import { stopChatTurn } from "@/lib/server/chat/active-turns";
import { requireVisibleChat } from "@/lib/server/chat/chat-access";
import { handle } from "@/lib/server/http/route";

/**
 * Stop, as the person pressed it: ends the chat's running turn on the server before the browser
 * drops its request, so the answer is stored as stopped rather than as a lost connection.
 */
export const POST = handle("member", async (_request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  await requireVisibleChat(id);
  return Response.json({ stopped: stopChatTurn(id) });
});
