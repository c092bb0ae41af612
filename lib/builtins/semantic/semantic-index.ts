import { createHash } from "node:crypto";
import { embed } from "ai";
import { LRUCache } from "lru-cache";
import type { EmbeddingsConfig } from "@/lib/tools/types";
import { embedItems } from "./embedder";
import { nearestRows } from "./hybrid";
import { normalize, type VectorCache } from "./vector-cache";

export interface SemanticDoc {
  key: string;
  text: string;
}

export interface SemanticStatus {
  model: string;
  docs: number;
  embedded: number;
  building: boolean;
  /** Chunks left out of the last build by `search.maxEmbedChunks`. */
  capped: number;
  /** Why the last build or query embedding failed; cleared by the next success. */
  error?: string;
  builtAt?: string;
}

/** A failed build is not retried on every query: a server that is down stays down for a while. */
const RETRY_AFTER_MS = 30_000;

export function contentHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 32);
}

/**
 * The vector half of a hybrid index: documents in replaceable groups (a file's chunks, a run's
 * documents), each with the vector of its text from the cache or, once built, from the model.
 * Queries scan a packed matrix of unit vectors (rebuilt only after a change): a brute-force scan
 * measured faster than sqlite-vec at 200,000 chunks (bench/RESULTS.md).
 */
export class SemanticIndex {
  private readonly groups = new Map<string, { key: string; hash: string }[]>();
  private readonly vectors = new Map<string, Float32Array>();
  private readonly pending = new Map<string, string>();
  private readonly keyHash = new Map<string, string>();
  private matrix: { data: Float32Array; dim: number; keys: string[] } | null = null;
  private building: Promise<void> | null = null;
  private failedAt = -Infinity;
  private readonly queries = new LRUCache<string, Float32Array>({ max: 256 });
  private capped = 0;
  private error: string | undefined;
  private builtAt: string | undefined;

  constructor(
    /** Replaced when settings change the cap; the model (and so the cache key) stays. */
    public config: EmbeddingsConfig,
    private readonly cache: VectorCache,
  ) {}

  setGroup(group: string, docs: readonly SemanticDoc[]): void {
    const entries = docs.map((doc) => {
      const hash = contentHash(doc.text);
      if (!this.vectors.has(hash)) {
        const cached = this.cache.get(this.config.id, hash);
        if (cached) this.vectors.set(hash, cached);
        else this.pending.set(hash, doc.text);
      }
      return { key: doc.key, hash };
    });
    this.removeGroup(group);
    for (const e of entries) this.keyHash.set(e.key, e.hash);
    this.groups.set(group, entries);
    this.matrix = null;
  }

  removeGroup(group: string): void {
    const entries = this.groups.get(group);
    if (!entries) return;
    for (const e of entries) this.keyHash.delete(e.key);
    this.groups.delete(group);
    this.matrix = null;
  }

  hasGroup(group: string): boolean {
    return this.groups.has(group);
  }

  groupNames(): IterableIterator<string> {
    return this.groups.keys();
  }

  status(): SemanticStatus {
    let docs = 0;
    let embedded = 0;
    for (const entries of this.groups.values()) {
      docs += entries.length;
      for (const e of entries) if (this.vectors.has(e.hash)) embedded++;
    }
    return {
      model: this.config.id,
      docs,
      embedded,
      building: this.building !== null,
      capped: this.capped,
      ...(this.error ? { error: this.error } : {}),
      ...(this.builtAt ? { builtAt: this.builtAt } : {}),
    };
  }

  /** Embeds what is not embedded yet; concurrent calls share one build. */
  build(signal?: AbortSignal, onProgress?: (done: number, total: number) => void): Promise<void> {
    this.building ??= this.runBuild(signal, onProgress).finally(() => {
      this.building = null;
    });
    return this.building;
  }

  private async runBuild(signal?: AbortSignal, onProgress?: (done: number, total: number) => void): Promise<void> {
    const live = new Set<string>();
    for (const entries of this.groups.values()) for (const e of entries) live.add(e.hash);
    // Text of a chunk that was edited away before it was embedded is dropped, not embedded.
    for (const hash of this.pending.keys()) if (!live.has(hash)) this.pending.delete(hash);
    const items = [...this.pending].map(([hash, text]) => ({ hash, text }));
    const total = Math.min(items.length, this.config.maxChunks);
    let done = 0;
    onProgress?.(0, total);
    const outcome = await embedItems({
      config: this.config,
      cache: this.cache,
      items,
      signal,
      onBatch: (stored) => {
        for (const { hash, vector } of stored) {
          this.vectors.set(hash, vector);
          this.pending.delete(hash);
        }
        this.matrix = null;
        done += stored.length;
        onProgress?.(done, total);
      },
    });
    this.capped = outcome.capped;
    this.error = outcome.error;
    if (outcome.error) this.failedAt = Date.now();
    else {
      this.failedAt = -Infinity;
      this.builtAt = new Date().toISOString();
    }
  }

  /**
   * Starts a build when something is waiting to be embedded (not again within RETRY_AFTER_MS of a
   * failure) and waits for it at most `waitMs`: a query answers from what is embedded by then.
   */
  async ensureBuilt(waitMs: number): Promise<void> {
    // Not tied to the asking call's signal: the build outlives one tool call, and the next one uses it.
    if (this.pending.size > 0 && !this.building && Date.now() - this.failedAt > RETRY_AFTER_MS) void this.build().catch(() => {});
    if (!this.building) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.building.catch(() => {}), new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
  }

  async embedQuery(query: string, signal?: AbortSignal): Promise<Float32Array> {
    const hit = this.queries.get(query);
    if (hit) return hit;
    try {
      const { embedding } = await embed({ model: this.config.model, value: query, maxRetries: 1, abortSignal: signal });
      const vector = normalize(Float32Array.from(embedding));
      this.queries.set(query, vector);
      return vector;
    } catch (err) {
      this.error = (err as Error).message.split("\n")[0];
      throw err;
    }
  }

  private packed(): { data: Float32Array; dim: number; keys: string[] } {
    if (this.matrix) return this.matrix;
    const keys: string[] = [];
    const rows: Float32Array[] = [];
    let dim = 0;
    for (const entries of this.groups.values()) {
      for (const e of entries) {
        const v = this.vectors.get(e.hash);
        if (!v) continue;
        dim ||= v.length;
        // A vector of another size (the model changed its output) is left out, not mis-scored.
        if (v.length !== dim) continue;
        keys.push(e.key);
        rows.push(v);
      }
    }
    const data = new Float32Array(rows.length * dim);
    rows.forEach((row, i) => data.set(row, i * dim));
    this.matrix = { data, dim, keys };
    return this.matrix;
  }

  /** The `k` documents nearest to a unit query vector, best first, with their vectors for MMR. */
  nearest(query: Float32Array, k: number): { key: string; score: number; vector: Float32Array }[] {
    const m = this.packed();
    if (m.keys.length === 0 || query.length !== m.dim) return [];
    return nearestRows(m.data, m.dim, m.keys.length, query, k).map(({ row, score }) => ({
      key: m.keys[row]!,
      score,
      vector: m.data.subarray(row * m.dim, (row + 1) * m.dim),
    }));
  }

  vectorOf(key: string): Float32Array | undefined {
    const hash = this.keyHash.get(key);
    return hash ? this.vectors.get(hash) : undefined;
  }
}
