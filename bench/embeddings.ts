/**
 * Hybrid search_code at scale: index build with embeddings, warm query latency, storage per chunk,
 * the cost of re-embedding after one edit — each against BM25 alone in the same run — and the
 * vector scan at 200,000 chunks: a packed Float32Array in JS against sqlite-vec (when installed).
 *
 *   npx tsx bench/embeddings.ts                       # 20,000 files (the recorded run)
 *   npx tsx bench/embeddings.ts --files 2000 --scan 20000 --dim 768
 *   npm install --prefix /tmp/vec sqlite-vec@0.1.9 && SQLITE_VEC=/tmp/vec/node_modules/sqlite-vec/index.mjs npx tsx bench/embeddings.ts
 *
 * The embedder answers from memory (a deterministic hashed bag of words, `--dim` floats), so the
 * figures are Toolroom's own cost: hashing, caching, SQLite writes, fusion and the scan.
 * Targets: warm query ≤ 200 ms; an edit re-embeds only its file's chunks.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import Database from "better-sqlite3";
import { hybridSearchCode, searchCode } from "@/lib/builtins/search";
import { buildEmbeddings } from "@/lib/builtins/semantic/build";
import { nearestRows } from "@/lib/builtins/semantic/hybrid";
import { normalize, VectorCache } from "@/lib/builtins/semantic/vector-cache";
import { testContext } from "@/lib/testing/context";
import type { EmbeddingsConfig } from "@/lib/tools/types";

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(value) ? value : fallback;
}
const FILES = flag("files", 20_000);
const SCAN_ROWS = flag("scan", 200_000);
const DIM = flag("dim", 768);

let seed = 0x5eed1234;
const rand = (n: number) => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) % n;
const SYL = "ka lo mi ne ru sa to vi ze pa do fi gu he ja ko lu ma no pe".split(" ");
const WORDS = Array.from({ length: 2000 }, () => Array.from({ length: 2 + rand(3) }, () => SYL[rand(SYL.length)]).join(""));
const word = () => WORDS[rand(WORDS.length)]!;

function fileText(): string {
  const lines: string[] = [];
  const n = 20 + rand(60);
  for (let i = 0; i < n; i++)
    lines.push(i % 9 === 0 ? `export function ${word()}${word()}(${word()}: string) {` : `  const ${word()} = ${word()}(${word()}, ${rand(100)});`);
  return `${lines.join("\n")}\n`;
}

function wordVector(text: string): number[] {
  const v = new Float64Array(DIM);
  for (const w of text.match(/[a-z]+/gi) ?? []) {
    let h = 2166136261;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619);
    for (let j = 0; j < 4; j++) {
      h = Math.imul(h ^ (h >>> 15), 2246822507) >>> 0;
      v[h % DIM]! += h & 1 ? 1 : -1;
    }
  }
  return Array.from(v);
}

let embeddedTexts = 0;
const memoryModel: EmbeddingModelV4 = {
  specificationVersion: "v4",
  provider: "bench",
  modelId: `memory-${DIM}`,
  maxEmbeddingsPerCall: 2048,
  supportsParallelCalls: true,
  doEmbed: async ({ values }) => {
    embeddedTexts += values.length;
    return { embeddings: values.map(wordVector), warnings: [] };
  },
};

const ms = (t0: number) => performance.now() - t0;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (x: number) => x.toFixed(x < 10 ? 2 : 0);

async function main() {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  console.log(`bench/embeddings — ${FILES} files, ${DIM}-dim vectors; load average ${load}; ${os.cpus().length} cores`);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-bench-embed-"));
  try {
    for (let i = 0; i < FILES; i++) {
      const dir = path.join(root, `pkg${i % 100}`);
      if (i < 100) fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, `m${i}.ts`), fileText());
    }
    const config: EmbeddingsConfig = { model: memoryModel, id: `bench/memory-${DIM}`, maxChunks: 1_000_000 };
    // The default refresh interval (2 s): a warm query does not re-walk the tree.
    const bm25 = testContext({ sourceRoot: root, settings: {} });
    const hybrid = testContext({ sourceRoot: root, settings: {}, embeddings: () => config });
    const eager = testContext({ sourceRoot: root, settings: { refreshIntervalMs: 0 }, embeddings: () => config });

    let t0 = performance.now();
    await searchCode.execute({ query: "warm up", k: 5 }, bm25);
    const lexicalBuild = ms(t0);
    t0 = performance.now();
    const built = await buildEmbeddings({ kind: "code", ctx: hybrid });
    const embedBuild = ms(t0);
    if (built.docs === undefined) throw new Error(built.error);
    console.log(
      `index build: BM25 ${fmt(lexicalBuild / 1000)} s; embeddings ${fmt(embedBuild / 1000)} s for ${built.docs} chunks (${fmt((embedBuild * 1000) / built.docs)} µs/chunk; ${fmt(embedBuild / lexicalBuild)}× the BM25 build)`,
    );

    const cache = new VectorCache(path.join(root, ".toolroom", "cache", "embeddings.sqlite"));
    const { rows, bytes } = cache.stats();
    cache.close();
    console.log(`storage: ${rows} vectors, ${fmt(bytes / 1024 / 1024)} MB, ${fmt(bytes / rows)} bytes per chunk (${DIM * 4} of them the Float32 vector)`);

    const queries = Array.from({ length: 30 }, () => `${word()} ${word()} where is ${word()}`);
    for (const q of queries.slice(0, 3)) await hybridSearchCode.execute({ query: q, k: 10 }, hybrid);
    const lexicalTimes: number[] = [];
    const hybridTimes: number[] = [];
    for (const q of queries) {
      t0 = performance.now();
      await searchCode.execute({ query: q, k: 10 }, bm25);
      lexicalTimes.push(ms(t0));
      t0 = performance.now();
      await hybridSearchCode.execute({ query: q, k: 10 }, hybrid);
      hybridTimes.push(ms(t0));
    }
    console.log(
      `warm query (median of ${queries.length}, interleaved): BM25 ${fmt(median(lexicalTimes))} ms; hybrid ${fmt(median(hybridTimes))} ms (${fmt(median(hybridTimes) / median(lexicalTimes))}×; target ≤ 200 ms)`,
    );

    const before = embeddedTexts;
    fs.appendFileSync(path.join(root, "pkg7", "m7.ts"), "export function editedOnce() { return 1; }\n");
    t0 = performance.now();
    await hybridSearchCode.execute({ query: "edited once", k: 5 }, eager);
    const editQuery = ms(t0);
    console.log(`after editing one file: ${embeddedTexts - before - 1} chunks re-embedded (+1 query), that query took ${fmt(editQuery)} ms`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }

  // The scan alone, at 200,000 chunks.
  const matrix = new Float32Array(SCAN_ROWS * DIM);
  for (let r = 0; r < SCAN_ROWS; r++) matrix.set(normalize(Float32Array.from(wordVector(`${word()} ${word()} ${word()}`))), r * DIM);
  const query = normalize(Float32Array.from(wordVector(`${word()} ${word()}`)));
  nearestRows(matrix, DIM, SCAN_ROWS, query, 40);
  const jsTimes: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    nearestRows(matrix, DIM, SCAN_ROWS, query, 40);
    jsTimes.push(ms(t0));
  }
  let vecLine = "sqlite-vec not found (see the header to compare)";
  try {
    const sqliteVec = (await import(/* not a dependency: measured when present */ process.env.SQLITE_VEC ?? "sqlite-vec")) as {
      load(db: Database.Database): void;
    };
    const db = new Database(":memory:");
    sqliteVec.load(db);
    db.exec(`CREATE VIRTUAL TABLE v USING vec0(embedding float[${DIM}] distance_metric=cosine)`);
    const insert = db.prepare("INSERT INTO v(rowid, embedding) VALUES (?, ?)");
    db.transaction(() => {
      for (let r = 0; r < SCAN_ROWS; r++) insert.run(BigInt(r), Buffer.from(matrix.buffer, r * DIM * 4, DIM * 4));
    })();
    const knn = db.prepare("SELECT rowid, distance FROM v WHERE embedding MATCH ? AND k = 40");
    const q = Buffer.from(query.buffer);
    knn.all(q);
    const vecTimes: number[] = [];
    for (let i = 0; i < 7; i++) {
      const t0 = performance.now();
      knn.all(q);
      vecTimes.push(ms(t0));
    }
    vecLine = `sqlite-vec ${fmt(median(vecTimes))} ms (${fmt(median(vecTimes) / median(jsTimes))}× the Float32 scan)`;
    db.close();
  } catch (error) {
    if (!String(error).includes("Cannot find")) vecLine = `sqlite-vec failed: ${(error as Error).message}`;
  }
  console.log(`vector scan of ${SCAN_ROWS} × ${DIM} (top 40, median of 7): Float32 in JS ${fmt(median(jsTimes))} ms; ${vecLine}`);
}

void main();
