import type { Cost, TokenTally } from "@/lib/artifacts/view/types";

export function rate(v: number): string {
  return `${(v * 100).toFixed(v === 1 || v === 0 ? 0 : 1)}%`;
}

/** Tokens a trial, in and out; "not reported" when the provider sent no usage (never 0). */
export function tokensPerTrial(t: TokenTally): string {
  if (t.reported === 0) return "not reported";
  const per = (n: number) => Math.round(n / t.reported).toLocaleString("en-US");
  return `${per(t.input)} in / ${per(t.output)} out${t.reported < t.trials ? ` (${t.reported} of ${t.trials} trials reported)` : ""}`;
}

export function usd(cost: Cost | null | undefined): string {
  if (!cost) return "–";
  const digits = cost.usd < 0.01 ? 4 : 2;
  return `${cost.partial ? "≥ " : ""}$${cost.usd.toFixed(digits)}`;
}
