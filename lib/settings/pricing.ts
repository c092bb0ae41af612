import type { Settings } from "./schema";

/** A model's `llms.<name>.pricing` (dollars per million tokens), if set. */
export function pricingOf(settings: Settings, model: string): { inputPerMTok: number; outputPerMTok: number } | undefined {
  return settings.llms[model]?.pricing;
}
