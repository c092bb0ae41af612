import { z } from "zod";
import { chatIdSchema } from "@/lib/server/chat/chat-request";
import { TEXT_PROTOCOLS } from "@/lib/chat/text-protocol/types";

export const MIN_COLUMNS = 2;
export const MAX_COLUMNS = 4;
/** A replayed chat may have many user messages; a comparison sends at most this many, in order. */
export const MAX_PROMPTS = 20;

export const compareColumnSchema = z.object({
  modelRef: z.string().min(1).max(200),
  toolMode: z.enum(["native", "text"]),
  /** Text mode only; the settings' chat.textProtocol when absent. */
  textProtocol: z.enum(TEXT_PROTOCOLS).optional(),
});

/** A new comparison: the prompts to send, or a stored chat whose user messages to replay, and 2-4 columns. */
export const compareRequestSchema = z
  .object({
    prompts: z.array(z.string().trim().min(1, "a prompt needs text")).min(1).max(MAX_PROMPTS).optional(),
    replay: z.object({ chatId: chatIdSchema, messages: z.enum(["first", "all"]).default("first") }).optional(),
    columns: z.array(compareColumnSchema).min(MIN_COLUMNS).max(MAX_COLUMNS),
    supervised: z.boolean().optional(),
  })
  .strict()
  .refine((body) => Boolean(body.prompts) !== Boolean(body.replay), { message: "give either prompts or replay", path: ["prompts"] });

export type CompareRequest = z.infer<typeof compareRequestSchema>;
export type CompareColumn = z.infer<typeof compareColumnSchema>;

export const comparisonIdSchema = chatIdSchema;
