import { z } from "zod";
import { TEXT_PROTOCOLS } from "@/lib/chat/text-protocol/types";
import { chatIdSchema } from "@/lib/server/chat/chat-request";

export const chatParamsSchema = z.object({ id: chatIdSchema });

export const chatPatchSchema = z
  .object({
    title: z.string().trim().min(1).max(200).optional(),
    modelRef: z.string().min(1).optional(),
    toolMode: z.enum(["native", "text"]).optional(),
    textProtocol: z.enum(TEXT_PROTOCOLS).nullable().optional(),
    supervised: z.boolean().optional(),
  })
  .strict();
