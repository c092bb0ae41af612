import { handleChatRequest } from "@/lib/app/chat-service";
import { chatRequestSchema, checkMessageSize, MAX_CHAT_BODY_BYTES } from "@/lib/app/chat-request";
import { handle, readJson } from "@/lib/app/route";
import { getSettings } from "@/lib/settings";

export const POST = handle(async (request: Request) => {
  const body = await readJson(request, chatRequestSchema, { maxBytes: MAX_CHAT_BODY_BYTES, what: "chat request" });
  checkMessageSize(body, getSettings().chat.maxMessageBytes);
  return handleChatRequest(body, request.signal);
});
