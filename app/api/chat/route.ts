import { handleChatRequest } from "@/lib/server/chat/chat-service";
import { chatRequestSchema, checkMessageSize, MAX_CHAT_BODY_BYTES } from "@/lib/server/chat/chat-request";
import { handle, readJson } from "@/lib/server/http/route";
import { getSettings } from "@/lib/settings";

export const POST = handle("member", async (request: Request) => {
  const body = await readJson(request, chatRequestSchema, { maxBytes: MAX_CHAT_BODY_BYTES, what: "chat request" });
  checkMessageSize(body, getSettings().chat.maxMessageBytes);
  return handleChatRequest(body, request.signal);
});
