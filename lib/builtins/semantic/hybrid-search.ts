import type { EmbeddingsConfig, ToolContext } from "@/lib/tools/types";
import { maximalMarginalRelevance, reciprocalRankFusion } from "./hybrid";
import type { SemanticIndex } from "./semantic-index";

/** How long a query waits for a build in progress before answering from what is embedded by then. */
export const BUILD_WAIT_MS = 5_000;

export type EmbeddingsChoice = { config: EmbeddingsConfig | null; error?: undefined } | { config: null; error: string };

/** The configured embedding model, or why there is none usable. */
export function embeddingsChoice(ctx: ToolContext): EmbeddingsChoice {
  try {
    return { config: ctx.embeddings?.() ?? null };
  } catch (err) {
    return { config: null, error: (err as Error).message };
  }
}

export interface HybridResult<T> {
  items: T[];
  /** One line for the model and the person: what the ranking used, and what was missing. */
  note?: string;
}

/**
 * BM25 alone when no embedding model is configured (no note: the tool's description says so);
 * otherwise BM25 and vector results fused by reciprocal rank fusion, then MMR so near-duplicate
 * chunks do not crowd the results. Any embedding failure falls back to BM25 and says so.
 */
export async function hybridRank<T>(options: {
  query: string;
  /** How many items the caller will keep (it may still drop some while re-checking paths). */
  k: number;
  lexical: readonly T[];
  keyOf: (item: T) => string;
  /** The item for a key found only by the vector half. */
  fromKey: (key: string) => T | undefined;
  index: (config: EmbeddingsConfig) => SemanticIndex;
  ctx: ToolContext;
  what: string;
}): Promise<HybridResult<T>> {
  const { query, k, lexical, keyOf, ctx, what } = options;
  const choice = embeddingsChoice(ctx);
  if (choice.error) return { items: [...lexical], note: `Note: embeddings unavailable (${choice.error}); BM25 results only.` };
  if (!choice.config) return { items: [...lexical] };
  let index: SemanticIndex;
  let queryVector: Float32Array;
  try {
    index = options.index(choice.config);
    await index.ensureBuilt(BUILD_WAIT_MS);
    queryVector = await index.embedQuery(query, ctx.signal);
  } catch (err) {
    const reason = (err as Error).message.split("\n")[0];
    return { items: [...lexical], note: `Note: the embedding model ${choice.config.id} failed (${reason}); BM25 results only.` };
  }
  const nearest = index.nearest(queryVector, k * 4);
  const byKey = new Map<string, T>();
  for (const item of lexical) byKey.set(keyOf(item), item);
  const fused = reciprocalRankFusion([lexical.map(keyOf), nearest.map((n) => n.key)]);
  const candidates = fused.flatMap(({ id, score }) => {
    const item = byKey.get(id) ?? options.fromKey(id);
    return item ? [{ item, score, vector: index.vectorOf(id) }] : [];
  });
  const picked = maximalMarginalRelevance(candidates, k * 2).map((c) => c.item);
  const status = index.status();
  const parts = [`BM25 + embeddings (${status.model})`];
  if (status.embedded < status.docs)
    parts.push(`${status.embedded} of ${status.docs} ${what} embedded${status.building ? ", the rest still being embedded" : ""}`);
  if (status.capped > 0) parts.push(`${status.capped} ${what} left out by search.maxEmbedChunks`);
  if (status.error) parts.push(`the last build stopped: ${status.error}`);
  return { items: picked, note: `Search: ${parts.join("; ")}.` };
}
