import { z } from "zod";
import { TEXT_PROTOCOLS } from "@/lib/chat/text-protocol/types";
import { approvalReasonSchema } from "@/lib/server/approvals/approval-reason";
import { HttpError } from "@/lib/server/http/http-error";

/** Chat ids as the client makes them; anything else (`%ff`, 8,000 characters) is refused, not looked up. */
export const chatIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "chat ids are 1-64 letters, digits, _ and -");

/** The most a chat request body may be: the last assistant message comes back with its tool outputs. */
export const MAX_CHAT_BODY_BYTES = 32 * 1024 * 1024;

const textPart = z.looseObject({ type: z.literal("text"), text: z.string() });

const approval = z.looseObject({
  id: z.string().min(1).max(200),
  // Strictly a boolean: "false" is truthy, and a truthy string once ran the confirming tool.
  approved: z.boolean().optional(),
  reason: approvalReasonSchema.optional(),
});

const toolPart = z
  .looseObject({ type: z.string(), toolCallId: z.string().min(1).max(200), state: z.string().optional(), approval: approval.optional() })
  .refine((p) => p.state !== "approval-responded" || typeof p.approval?.approved === "boolean", {
    message: "an approval response needs approved: true or false",
    path: ["approval", "approved"],
  });

/**
 * A resource attached to a question (the Sources view): its bytes travel inline. Only a data: URL —
 * a provider given an http(s) URL fetches it, and a browser must not choose what the server fetches.
 */
const filePart = z.looseObject({
  type: z.literal("file"),
  mediaType: z.string().min(1).max(200),
  filename: z.string().max(2000).optional(),
  url: z.string().startsWith("data:", "an attached file must be a data: URL"),
});

/** Parts are checked by their type: the ones the server reads (text, files, tool calls) must be well-formed; others pass through. */
const part = z.looseObject({ type: z.string().max(200) }).superRefine((value, ctx) => {
  const schema =
    value.type === "text" ? textPart : value.type === "file" ? filePart : value.type.startsWith("tool-") || value.type === "dynamic-tool" ? toolPart : null;
  const result = schema?.safeParse(value);
  for (const issue of result?.success === false ? result.error.issues : []) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
});

const uiMessage = z.object({
  id: z.string().min(1).max(200),
  role: z.enum(["user", "assistant"]),
  parts: z.array(part).max(500),
  metadata: z.unknown().optional(),
});

/** One request: the new user message, or the last assistant message carrying approval decisions. */
export const chatRequestSchema = z.object({
  id: chatIdSchema,
  message: uiMessage,
  trigger: z.enum(["submit-message", "regenerate-message"]).default("submit-message"),
  messageId: z.string().optional(),
  model: z.string().min(1).optional(),
  toolMode: z.enum(["native", "text"]).optional(),
  textProtocol: z.enum(TEXT_PROTOCOLS).optional(),
  supervised: z.boolean().optional(),
  grantApprovalIds: z.array(z.string()).max(50).default([]),
  /** Approval id → the arguments the person edited before approving; checked against the tool's schema by the server. */
  editedInputs: z
    .record(z.string().max(200), z.unknown())
    .refine((edits) => Object.keys(edits).length <= 50, "at most 50 edited calls")
    .default({}),
});

export type ChatRequest = z.infer<typeof chatRequestSchema>;

/** A user message (its text and attached files) above `chat.maxMessageBytes` is refused (413) before anything is stored or sent to a model. */
export function checkMessageSize(request: ChatRequest, maxBytes: number): void {
  if (request.message.role !== "user") return;
  const size = (p: ChatRequest["message"]["parts"][number]) =>
    p.type === "text" ? Buffer.byteLength(String(p.text)) : p.type === "file" ? Buffer.byteLength(String(p.url)) : 0;
  const bytes = request.message.parts.reduce((sum, p) => sum + size(p), 0);
  if (bytes > maxBytes) {
    throw new HttpError(
      413,
      `The message is ${bytes} bytes of text and attachments, above the ${maxBytes}-byte limit (settings chat.maxMessageBytes).`,
      "message_too_large",
    );
  }
}
