import { z } from "zod";

/** An `mcpServers` key as the address carries it: looked up, never used as a path. */
export const sourceParams = z.object({ name: z.string().min(1).max(200) });

const uri = z.string().min(1).max(4096);

export const readBody = z.object({ uri });
export const subscriptionBody = z.object({ uri, subscribed: z.boolean() });
export const promptBody = z.object({ name: z.string().min(1).max(500), arguments: z.record(z.string().max(200), z.string().max(100_000)).default({}) });
export const completeBody = z.object({
  ref: z.discriminatedUnion("type", [
    z.object({ type: z.literal("ref/prompt"), name: z.string().min(1).max(500) }),
    z.object({ type: z.literal("ref/resource"), uri }),
  ]),
  argument: z.object({ name: z.string().min(1).max(200), value: z.string().max(10_000) }),
  context: z.record(z.string().max(200), z.string().max(10_000)).default({}),
});
