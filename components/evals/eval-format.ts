import type { Cost, TokenTally, UnknownCost } from "@/lib/artifacts/view/types";

export function rate(v: number): string {
  return `${(v * 100).toFixed(v === 1 || v === 0 ? 0 : 1)}%`;
}

/** Tokens a trial, in and out; "not reported" when the provider sent no usage (never 0). */
export function tokensPerTrial(t: TokenTally): string {
  if (t.reported === 0) return "not reported";
  const per = (n: number) => Math.round(n / t.reported).toLocaleString("en-US");
  return `${per(t.input)} in / ${per(t.output)} out${t.reported < t.trials ? ` (${t.reported} of ${t.trials} trials reported)` : ""}`;
}

/** A known cost, or why it is unknown: an unpriced model and a priced one without reported usage need different fixes. */
export function costText(cost: Cost | UnknownCost): string {
  if (cost.usd === null) return cost.unknown === "no pricing" ? "no pricing" : "cost unknown: usage not reported";
  const digits = cost.usd < 0.01 ? 4 : 2;
  return `${cost.partial ? "≥ " : ""}$${cost.usd.toFixed(digits)}`;
}
