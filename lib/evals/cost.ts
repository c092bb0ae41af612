/**
 * What an eval costs, from `llms.<name>.pricing` (dollars per million tokens): a run's cells from
 * the tokens their providers reported, and a run not started yet from an estimate. Pure.
 */
import type { TokenTally } from "./case-grid";

export interface Pricing {
  inputPerMTok: number;
  outputPerMTok: number;
}

export interface Cost {
  usd: number;
  /** Some trials reported no usage: the cost is of the others, so at least this much. */
  partial: boolean;
}

/**
 * Why a cost is not known: the model has no pricing, or it is priced but no trial reported token
 * usage (a provider that sends none). The two call for different fixes, so they are told apart.
 */
export interface UnknownCost {
  usd: null;
  unknown: "no pricing" | "no usage";
}

function tokenCost(input: number, output: number, pricing: Pricing): number {
  return (input * pricing.inputPerMTok + output * pricing.outputPerMTok) / 1_000_000;
}

/** A cell's cost, or why it is unknown (never 0 for "unknown"). */
export function cellCost(tokens: TokenTally, pricing: Pricing | undefined): Cost | UnknownCost {
  if (!pricing) return { usd: null, unknown: "no pricing" };
  if (tokens.reported === 0) return { usd: null, unknown: "no usage" };
  return { usd: tokenCost(tokens.input, tokens.output, pricing), partial: tokens.reported < tokens.trials };
}

/**
 * The sum of the known costs. When none is known: "no usage" if some cell was priced (the pricing
 * is there, the provider's usage is what is missing), else "no pricing".
 */
export function sumCosts(costs: readonly (Cost | UnknownCost)[]): Cost | UnknownCost {
  const known = costs.filter((c): c is Cost => c.usd !== null);
  if (!known.length) return { usd: null, unknown: costs.some((c) => c.usd === null && c.unknown === "no usage") ? "no usage" : "no pricing" };
  return { usd: known.reduce((s, c) => s + c.usd, 0), partial: known.length < costs.length || known.some((c) => c.partial) };
}

/**
 * Tokens a trial is assumed to take before a run has measured any: the system prompt and tool
 * list dominate the input; an answer with a call or two is short. A rough figure, said to be one.
 */
const ESTIMATED_TRIAL_TOKENS = { input: 2500, output: 250 } as const;

export interface CostEstimate {
  /** Per model: its trials and their estimated cost (null: no pricing for it). */
  models: { model: string; trials: number; usd: number | null }[];
  /** Over the priced models; null when none is priced. */
  usd: number | null;
  /** Models without pricing (their cost is not in the total). */
  unpriced: string[];
  perTrial: { input: number; output: number };
}

/** The estimated cost of trials per model, before anything runs. */
export function estimateCost(
  trialsPerModel: ReadonlyMap<string, number>,
  pricingOf: (model: string) => Pricing | undefined,
  perTrial: { input: number; output: number } = ESTIMATED_TRIAL_TOKENS,
): CostEstimate {
  const models = [...trialsPerModel].map(([model, trials]) => {
    const pricing = pricingOf(model);
    return { model, trials, usd: pricing ? tokenCost(trials * perTrial.input, trials * perTrial.output, pricing) : null };
  });
  const priced = models.filter((m) => m.usd !== null);
  return {
    models,
    usd: priced.length ? priced.reduce((s, m) => s + m.usd!, 0) : null,
    unpriced: models.filter((m) => m.usd === null).map((m) => m.model),
    perTrial: { ...perTrial },
  };
}
