import { embedMany } from "ai";
import type { EmbeddingsConfig } from "@/lib/tools/types";
import type { VectorCache } from "./vector-cache";

export interface EmbedItem {
  hash: string;
  text: string;
}

export interface EmbedOutcome {
  /** Newly embedded this build. */
  embedded: number;
  /** Left out because of the cap. */
  capped: number;
  error?: string;
}

/** Values per request; providers split further if their own limit is lower. */
export const EMBED_BATCH = 96;
/** Requests in flight at once. */
export const EMBED_CONCURRENCY = 3;
/** Embedding models read ~8k tokens; a 40-line chunk is far below, a minified line may not be. */
const MAX_CHARS = 6000;

/**
 * Embeds the items in batches, a few requests at a time, each batch stored as it arrives, so a
 * failure keeps what was done and the next build resumes. Retries with backoff are the AI SDK's
 * (`maxRetries`). Stops at the first batch that still fails, and says why.
 */
export async function embedItems(options: {
  config: EmbeddingsConfig;
  cache: VectorCache;
  items: readonly EmbedItem[];
  signal?: AbortSignal;
  onBatch?: (stored: { hash: string; vector: Float32Array }[]) => void;
}): Promise<EmbedOutcome> {
  const { config, cache, signal } = options;
  const items = options.items.slice(0, config.maxChunks);
  const batches: EmbedItem[][] = [];
  for (let i = 0; i < items.length; i += EMBED_BATCH) batches.push(items.slice(i, i + EMBED_BATCH));
  let embedded = 0;
  let error: string | undefined;
  let next = 0;
  const worker = async () => {
    while (!error && next < batches.length) {
      const batch = batches[next++]!;
      try {
        signal?.throwIfAborted();
        const { embeddings } = await embedMany({
          model: config.model,
          values: batch.map((item) => item.text.slice(0, MAX_CHARS)),
          maxRetries: 2,
          abortSignal: signal,
        });
        if (embeddings.length !== batch.length) throw new Error(`the model returned ${embeddings.length} vectors for ${batch.length} texts`);
        const vectors = cache.put(
          config.id,
          batch.map((item, i) => ({ hash: item.hash, vector: embeddings[i]! })),
        );
        embedded += batch.length;
        options.onBatch?.(batch.map((item, i) => ({ hash: item.hash, vector: vectors[i]! })));
      } catch (err) {
        error ??= (err as Error).message.split("\n")[0];
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(EMBED_CONCURRENCY, batches.length) }, worker));
  return { embedded, capped: options.items.length - items.length, ...(error ? { error } : {}) };
}
