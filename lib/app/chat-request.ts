import { z } from "zod";

const uiMessage = z.object({
  id: z.string().min(1).max(200),
  role: z.enum(["user", "assistant"]),
  parts: z.array(z.looseObject({ type: z.string() })).max(500),
  metadata: z.unknown().optional(),
});

/** One request: the new user message, or the last assistant message carrying approval decisions. */
export const chatRequestSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "chat ids are letters, digits, _ and -"),
  message: uiMessage,
  trigger: z.enum(["submit-message", "regenerate-message"]).default("submit-message"),
  messageId: z.string().optional(),
  model: z.string().min(1).optional(),
  toolMode: z.enum(["native", "text"]).optional(),
  supervised: z.boolean().optional(),
  grantApprovalIds: z.array(z.string()).max(50).default([]),
});

export type ChatRequest = z.infer<typeof chatRequestSchema>;
