import { describe, expect, it } from "vitest";
import { pricingOf } from "./pricing";
import { settingsSchema } from "./schema";

describe("llms.<name>.pricing", () => {
  it("is read per model and validated: dollars per million tokens, never negative, no other keys", () => {
    const settings = settingsSchema.parse({
      llms: { gpt: { provider: "openai", pricing: { inputPerMTok: 0.15, outputPerMTok: 0.6 } }, offline: { provider: "offline" } },
    });
    expect(pricingOf(settings, "gpt")).toEqual({ inputPerMTok: 0.15, outputPerMTok: 0.6 });
    expect(pricingOf(settings, "offline")).toBeUndefined();
    expect(settingsSchema.safeParse({ llms: { gpt: { provider: "openai", pricing: { inputPerMTok: -1, outputPerMTok: 1 } } } }).success).toBe(false);
    expect(settingsSchema.safeParse({ llms: { gpt: { provider: "openai", pricing: { inputPerMTok: 1 } } } }).success).toBe(false);
    expect(settingsSchema.safeParse({ llms: { gpt: { provider: "openai", pricing: { inputPerMTok: 1, outputPerMTok: 1, per: "k" } } } }).success).toBe(false);
  });
});
