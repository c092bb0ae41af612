import { z } from "zod";
import { approvalRuleObject } from "@/lib/settings/schema";
import { chatIdSchema } from "@/lib/server/chat/chat-request";

/** A rule saved from the UI: the settings form, plus where it applies (a chat, or everywhere) and whether it is on. */
// The patterns are checked by the server when it compiles the rule (400 invalid_rule naming the field).
// `confirmBroad`: the person confirmed an allow rule that allows every tool or every call of a confirming tool.
export const newRuleSchema = approvalRuleObject.extend({
  chatId: chatIdSchema.nullable().optional(),
  enabled: z.boolean().optional(),
  confirmBroad: z.boolean().optional(),
});

/** Either the whole rule again (edit) or only `enabled` / `chatId`. */
export const ruleChangeSchema = z.union([newRuleSchema, z.object({ enabled: z.boolean().optional(), chatId: chatIdSchema.nullable().optional() }).strict()]);

export const ruleParamsSchema = z.object({ id: z.string().min(1).max(100) });
