/**
 * The search_code index on MiniSearch, for bench/grep-search.ts to measure against `ChunkIndex`:
 * same chunks, same tokenizer (the terms are handed over already split), same BM25 constants, the
 * boost field weighted as in ranker.ts; only the index and the scoring code are MiniSearch's.
 */
import MiniSearch from "minisearch";
import { forEachEncodedDoc, tokenize, type ChunkHit, type EncodedGroup } from "@/lib/builtins/ranker";

interface ChunkDoc {
  id: number;
  body: string;
  boost: string;
}

const repeat = (tf: Map<string, number>) => [...tf].flatMap(([term, n]) => Array<string>(n).fill(term)).join(" ");

export class MiniSearchChunks {
  private readonly index = new MiniSearch<ChunkDoc>({
    fields: ["body", "boost"],
    tokenize: (text) => (text ? text.split(" ") : []),
    processTerm: (term) => term,
    searchOptions: { boost: { boost: 2 }, bm25: { k: 1.2, b: 0.75, d: 0 } },
  });
  private readonly docs: { key: string; start: number; end: number }[] = [];
  private readonly ids = new Map<string, number[]>();

  get size(): number {
    return this.index.documentCount;
  }

  set(key: string, encoded: EncodedGroup): void {
    this.remove(key);
    const batch: ChunkDoc[] = [];
    forEachEncodedDoc(encoded, (start, end, _len, tf, btf) => {
      const id = this.docs.push({ key, start, end }) - 1;
      batch.push({ id, body: repeat(tf), boost: repeat(btf) });
    });
    this.index.addAll(batch);
    this.ids.set(
      key,
      batch.map((d) => d.id),
    );
  }

  remove(key: string): void {
    for (const id of this.ids.get(key) ?? []) this.index.discard(id);
    this.ids.delete(key);
  }

  search(query: string, k: number): ChunkHit[] {
    const terms = tokenize(query);
    if (terms.length === 0) return [];
    return this.index
      .search(terms.join(" "))
      .slice(0, k)
      .map((r) => ({ ...this.docs[r.id as number]!, score: r.score }));
  }

  /** The serialized index, as it would be cached on disk. */
  serializedBytes(): number {
    return JSON.stringify(this.index).length;
  }
}
