import { handleChatRequest } from "@/lib/app/chat-service";
import { HttpError } from "@/lib/app/http-error";
import { chatRequestSchema } from "@/lib/app/chat-request";

export async function POST(request: Request) {
  let json: unknown;
  try {
    json = await request.json();
  } catch {
    return new HttpError(400, "The request body is not JSON.").toResponse();
  }
  const parsed = chatRequestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return new HttpError(400, `Invalid chat request at ${issue?.path.join(".") || "body"}: ${issue?.message}`).toResponse();
  }
  try {
    return await handleChatRequest(parsed.data, request.signal);
  } catch (error) {
    if (error instanceof HttpError) return error.toResponse();
    throw error;
  }
}
