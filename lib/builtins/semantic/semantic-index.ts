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
 * Queries scan packed unit vectors (changed incrementally): a brute-force scan
 * measured faster than sqlite-vec at 200,000 chunks (bench/RESULTS.md).
 */
export class SemanticIndex {
  private readonly groups = new Map<string, { key: string; hash: string }[]>();
  private readonly vectors = new Map<string, Float32Array>();
  private readonly pending = new Map<string, string>();
  private readonly keyHash = new Map<string, string>();
  /** Keys whose text is waiting for its vector, by hash (two chunks may share a text). */
  private readonly waiting = new Map<string, Set<string>>();
  private readonly rows = new VectorRows();
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
    this.removeGroup(group);
    const entries = docs.map((doc) => {
      const hash = contentHash(doc.text);
      let vector = this.vectors.get(hash);
      if (!vector) {
        vector = this.cache.get(this.config.id, hash);
        if (vector) this.vectors.set(hash, vector);
      }
      this.keyHash.set(doc.key, hash);
      if (vector) this.rows.add(doc.key, vector);
      else {
        this.pending.set(hash, doc.text);
        let keys = this.waiting.get(hash);
        if (!keys) this.waiting.set(hash, (keys = new Set()));
        keys.add(doc.key);
      }
      return { key: doc.key, hash };
    });
    this.groups.set(group, entries);
  }

  removeGroup(group: string): void {
    const entries = this.groups.get(group);
    if (!entries) return;
    for (const e of entries) {
      this.keyHash.delete(e.key);
      this.rows.remove(e.key);
      this.waiting.get(e.hash)?.delete(e.key);
    }
    this.groups.delete(group);
  }

  status(): SemanticStatus {
    return {
      model: this.config.id,
      docs: this.keyHash.size,
      embedded: this.rows.size,
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
    // Text of a chunk that was edited away before it was embedded is dropped, not embedded.
    for (const hash of this.pending.keys()) {
      if (!this.waiting.get(hash)?.size) {
        this.pending.delete(hash);
        this.waiting.delete(hash);
      }
    }
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
          for (const key of this.waiting.get(hash) ?? []) this.rows.add(key, vector);
          this.waiting.delete(hash);
        }
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

  /** The `k` documents nearest to a unit query vector, best first, with their vectors for MMR. */
  nearest(query: Float32Array, k: number): { key: string; score: number; vector: Float32Array }[] {
    return this.rows.nearest(query, k);
  }

  vectorOf(key: string): Float32Array | undefined {
    const hash = this.keyHash.get(key);
    return hash ? this.vectors.get(hash) : undefined;
  }
}

/**
 * Unit vectors packed in one growable Float32Array, one row per document: an edit kills its old
 * rows and appends new ones (compacted once half are dead), so a change never re-packs the whole
 * index. A query is one linear scan of the live rows.
 */
export class VectorRows {
  private data = new Float32Array(0);
  private dim = 0;
  private used = 0;
  private keys: (string | null)[] = [];
  private dead = new Uint8Array(0);
  private readonly rowOf = new Map<string, number>();

  get size(): number {
    return this.rowOf.size;
  }

  add(key: string, vector: Float32Array): void {
    this.remove(key);
    this.dim ||= vector.length;
    // A vector of another size (the model changed its output) is left out, not mis-scored.
    if (vector.length !== this.dim) return;
    if ((this.used + 1) * this.dim > this.data.length) {
      const capacity = Math.max(1024, (this.used + 1) * 2);
      const next = new Float32Array(capacity * this.dim);
      next.set(this.data.subarray(0, this.used * this.dim));
      this.data = next;
      const dead = new Uint8Array(capacity);
      dead.set(this.dead.subarray(0, this.used));
      this.dead = dead;
    }
    this.dead[this.used] = 0;
    this.data.set(vector, this.used * this.dim);
    this.keys[this.used] = key;
    this.rowOf.set(key, this.used++);
  }

  remove(key: string): void {
    const row = this.rowOf.get(key);
    if (row === undefined) return;
    this.keys[row] = null;
    this.dead[row] = 1;
    this.rowOf.delete(key);
    if (this.used - this.rowOf.size > Math.max(1024, this.rowOf.size)) this.compact();
  }

  private compact(): void {
    let to = 0;
    for (let from = 0; from < this.used; from++) {
      const key = this.keys[from];
      if (key === null || key === undefined) continue;
      if (to !== from) this.data.copyWithin(to * this.dim, from * this.dim, (from + 1) * this.dim);
      this.keys[to] = key;
      this.dead[to] = 0;
      this.rowOf.set(key, to++);
    }
    this.used = to;
    this.keys.length = to;
  }

  nearest(query: Float32Array, k: number): { key: string; score: number; vector: Float32Array }[] {
    if (this.size === 0 || query.length !== this.dim) return [];
    return nearestRows(this.data, this.dim, this.used, query, k, this.dead).map(({ row, score }) => ({
      key: this.keys[row]!,
      score,
      vector: this.data.subarray(row * this.dim, (row + 1) * this.dim),
    }));
  }
}
