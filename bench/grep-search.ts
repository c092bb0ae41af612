/**
 * grep_code against `grep -rn -i`, and the search_code index, on a generated tree.
 *
 *   npx tsx bench/grep-search.ts                 # 20,000 files, ~200 MB (the recorded run)
 *   npx tsx bench/grep-search.ts --files 2000 --mb 20 [--keep] [--repo-map] [--generate-only]
 *
 * Targets: grep_code ≤ 3× grep; index build ≤ 60 s; query ≤ 200 ms.
 *
 * The search index is also built on MiniSearch (bench/minisearch-chunks.ts) from the same chunks, and
 * both are compared on build time, size, query time and the ranking cases of search.test.ts.
 * Run with `node --expose-gc --import tsx bench/grep-search.ts` for the heap figures.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { grepCode } from "@/lib/builtins/grep";
import { repoMapLines } from "@/lib/builtins/repo-map";
import type { ChunkHit } from "@/lib/builtins/ranker";
import { chunkFile, SEARCH_INDEX_VERSION, searchCode, searchIndexFor, type SearchFileData } from "@/lib/builtins/search";
import { FileIndex } from "@/lib/sandbox/file-index";
import { testContext } from "@/lib/testing/context";
import { MiniSearchChunks } from "./minisearch-chunks";
import { SEARCH_RANKING_CASES } from "@/lib/testing/search-ranking-cases";

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(value) ? value : fallback;
}
const FILES = flag("files", 20_000);
const TOTAL_MB = flag("mb", 200);
const KEEP = process.argv.includes("--keep");
const WITH_REPO_MAP = process.argv.includes("--repo-map");
const GENERATE_ONLY = process.argv.includes("--generate-only");
const NEEDLE = "needle_Zq9xw";

// A seeded generator: every run measures the same tree.
let seed = 0x2f6b1c3d;
function rand(n: number): number {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return seed % n;
}
const SYLLABLES = "ka lo mi ne ru sa to vi ze pa do fi gu he ja ko lu ma no pe qu ri so tu ve wa xi yo zu ba".split(" ");
const WORDS = Array.from({ length: 3000 }, () => Array.from({ length: 2 + rand(3) }, () => SYLLABLES[rand(SYLLABLES.length)]).join(""));
const anyWord = () => WORDS[rand(WORDS.length)]!;
const capital = (w: string) => w.replace(/^./, (c) => c.toUpperCase());
// Real code reuses its names: a pool of 60,000 identifiers, drawn with a skew towards the common ones.
const POOL = 20_000;
const CAMELS = Array.from({ length: POOL }, () => anyWord() + capital(anyWord()));
const SNAKES = Array.from({ length: POOL }, () => `${anyWord()}_${anyWord()}`);
const skewed = <T>(xs: readonly T[]): T => {
  const r = rand(1_000_000) / 1_000_000;
  return xs[Math.floor(r * r * xs.length)]!;
};
const word = () => skewed(WORDS);
const camel = () => skewed(CAMELS);
const snake = () => skewed(SNAKES);
const TYPES = ["string", "number", "boolean", "Record<string, number>", "Promise<void>", "Item[]"];

function tsLine(): string {
  switch (rand(8)) {
    case 0:
      return `export function ${camel()}(${word()}: ${TYPES[rand(TYPES.length)]}, ${word()}: number): ${TYPES[rand(TYPES.length)]} {`;
    case 1:
      return `  const ${camel()} = ${word()}.${camel()}(${word()}, ${rand(1000)});`;
    case 2:
      return `  if (${word()} > ${rand(100)}) return ${camel()}(${word()});`;
    case 3:
      return `  // ${word()} ${word()} ${word()} ${word()} ${word()} ${word()}`;
    case 4:
      return `export class ${capital(camel())} extends Base {`;
    case 5:
      return `  ${word()}: ${TYPES[rand(TYPES.length)]} = ${rand(10)};`;
    case 6:
      return "}";
    default:
      return `  return ${word()}.${camel()}.${word()} + ${camel()};`;
  }
}

function pyLine(): string {
  switch (rand(6)) {
    case 0:
      return `def ${snake()}(${word()}, ${word()}=${rand(10)}):`;
    case 1:
      return `    ${word()} = ${word()}.${snake()}(${word()}, ${rand(100)})`;
    case 2:
      return `class ${capital(camel())}(${camel()}):`;
    case 3:
      return `    # ${word()} ${word()} ${word()} ${word()} ${word()}`;
    case 4:
      return `    if ${word()} > ${rand(50)}:`;
    default:
      return `        return ${snake()}(${word()})`;
  }
}

function generate(root: string): { files: number; bytes: number; needles: number } {
  const avg = (TOTAL_MB * 1024 * 1024) / FILES;
  let bytes = 0;
  let needles = 0;
  for (let i = 0; i < FILES; i++) {
    const dir = path.join(root, `pkg${i % 50}`, `mod${Math.floor(i / 50) % 40}`);
    fs.mkdirSync(dir, { recursive: true });
    const py = i % 4 === 0;
    const target = avg * (0.2 + rand(1600) / 1000);
    const lines: string[] = [];
    let size = 0;
    while (size < target) {
      const line = py ? pyLine() : tsLine();
      lines.push(line);
      size += line.length + 1;
    }
    // A rare needle: grep has to read the whole tree to find every one.
    if (i % 4000 === 1234) {
      lines.splice(rand(lines.length), 0, `  const ${NEEDLE} = 1; // NEEDLE_ZQ9XW`);
      needles++;
    }
    const text = `${lines.join("\n")}\n`;
    fs.writeFileSync(path.join(dir, `file${i}.${py ? "py" : "ts"}`), text);
    bytes += text.length;
  }
  return { files: FILES, bytes, needles };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function time<T>(fn: () => Promise<T> | T): Promise<[number, T]> {
  const t0 = performance.now();
  const value = await fn();
  return [performance.now() - t0, value];
}

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

type Searcher = { search(query: string, k: number): ChunkHit[] };

/** The same index built on MiniSearch from the records ChunkIndex was built from. */
function miniSearchOf(files: FileIndex<SearchFileData>): MiniSearchChunks {
  const mini = new MiniSearchChunks();
  for (const [rel, record] of files.records) mini.set(rel, record.data);
  return mini;
}

async function rankingCases(): Promise<void> {
  const fixture = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-bench-rank-"));
  try {
    fs.cpSync(path.join(import.meta.dirname, "..", "lib", "builtins", "__fixtures__", "search-repo"), fixture, { recursive: true });
    const state = await searchIndexFor(fs.realpathSync(fixture), {});
    const mini = miniSearchOf(state.files);
    for (const [name, index] of [
      ["ChunkIndex", state.chunks],
      ["MiniSearch", mini],
    ] as [string, Searcher][]) {
      const misses = SEARCH_RANKING_CASES.filter(([q, want]) => index.search(q, 5)[0]?.key !== want).map(([q]) => q);
      console.log(
        `ranking cases, ${name}: ${SEARCH_RANKING_CASES.length - misses.length}/10 defining file first (test needs ≥ 8)${misses.length ? `; missed: ${misses.join(", ")}` : ""}`,
      );
    }
  } finally {
    fs.rmSync(fixture, { recursive: true, force: true });
  }
}

/** Build, size and query figures of the MiniSearch index beside ChunkIndex's, on the generated tree. */
function compareMiniSearch(files: FileIndex<SearchFileData>, chunks: Searcher, cacheBytes: number, queries: readonly string[]): void {
  const before = heapMb();
  const [buildMs, mini] = timeSync(() => miniSearchOf(files));
  const heap = heapMb() - before;
  console.log(`MiniSearch build from the same chunks: ${(buildMs / 1000).toFixed(1)} s, ${mini.size} chunks, heap +${heap.toFixed(0)} MB`);
  const [serializeMs, bytes] = timeSync(() => mini.serializedBytes());
  console.log(
    `MiniSearch serialized: ${(bytes / 1024 / 1024).toFixed(0)} MB in ${(serializeMs / 1000).toFixed(1)} s (ChunkIndex cache ${(cacheBytes / 1024 / 1024).toFixed(0)} MB)`,
  );
  const runs: Record<string, number[]> = { ChunkIndex: [], MiniSearch: [] };
  let overlap = 0;
  for (const q of queries) {
    let ours: ChunkHit[] = [];
    let theirs: ChunkHit[] = [];
    for (let r = 0; r < 3; r++) {
      const [a, x] = timeSync(() => chunks.search(q, 40));
      const [b, y] = timeSync(() => mini.search(q, 40));
      runs.ChunkIndex!.push(a);
      runs.MiniSearch!.push(b);
      ours = x;
      theirs = y;
    }
    const top = new Set(ours.slice(0, 10).map((h) => `${h.key}:${h.start}`));
    overlap += theirs.slice(0, 10).filter((h) => top.has(`${h.key}:${h.start}`)).length / Math.max(1, Math.min(10, ours.length));
  }
  for (const [name, ms] of Object.entries(runs)) console.log(`index query, ${name}: median ${median(ms).toFixed(1)} ms, max ${Math.max(...ms).toFixed(1)} ms`);
  console.log(`top-10 agreement, MiniSearch vs ChunkIndex: ${((overlap / queries.length) * 100).toFixed(0)}%`);
}

function timeSync<T>(fn: () => T): [number, T] {
  const t0 = performance.now();
  const value = fn();
  return [performance.now() - t0, value];
}

async function main(): Promise<void> {
  await rankingCases();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-bench-"));
  const ctx = testContext({ sourceRoot: root });
  try {
    const [genMs, tree] = await time(() => generate(root));
    console.log(
      `tree: ${tree.files} files, ${(tree.bytes / 1024 / 1024).toFixed(1)} MB, ${tree.needles} needles (generated in ${(genMs / 1000).toFixed(1)} s)`,
    );
    if (GENERATE_ONLY) {
      console.log(`generated: ${root}`);
      return;
    }
    // Warm the page cache for both contenders.
    spawnSync("grep", ["-rn", "-i", "warmup_nothing", root]);

    const grepRuns: number[] = [];
    const oursRuns: number[] = [];
    let grepFound = 0;
    let oursOut = "";
    for (let r = 0; r < 3; r++) {
      const [g, res] = await time(() => spawnSync("grep", ["-rn", "-i", NEEDLE, root], { encoding: "utf8", maxBuffer: 1 << 26 }));
      grepRuns.push(g);
      grepFound = res.stdout.split("\n").filter(Boolean).length;
      const [o, out] = await time(() => grepCode.execute({ pattern: NEEDLE, path: ".", max_results: 20 }, ctx));
      oursRuns.push(o);
      oursOut = String(out);
    }
    const grepMs = median(grepRuns);
    const oursMs = median(oursRuns);
    console.log(`grep -rn -i (rare needle, whole tree): ${grepMs.toFixed(0)} ms, ${grepFound} lines`);
    console.log(`grep_code   (rare needle, whole tree): ${oursMs.toFixed(0)} ms, ${oursOut.split("\n")[0]}`);
    console.log(`ratio grep_code / grep: ${(oursMs / grepMs).toFixed(2)}x (target ≤ 3x)`);

    const [cg] = await time(() => spawnSync("grep", ["-rn", "-i", "return", root], { encoding: "utf8", maxBuffer: 1 << 30 }));
    const [co, commonOut] = await time(() => grepCode.execute({ pattern: "return", path: ".", max_results: 20 }, ctx));
    console.log(`common pattern: grep (all matches) ${cg.toFixed(0)} ms; grep_code (stops after 20) ${co.toFixed(1)} ms: ${String(commonOut).split("\n")[0]}`);

    const heapBefore = heapMb();
    const [buildMs] = await time(() => searchIndexFor(fs.realpathSync(root), {}));
    const state = await searchIndexFor(fs.realpathSync(root), {});
    const cacheFile = path.join(fs.realpathSync(root), ".toolroom", "cache", "search-index.jsonl");
    const cacheMb = fs.statSync(cacheFile).size / 1024 / 1024;
    console.log(`search index build (cold): ${(buildMs / 1000).toFixed(1)} s, ${state.chunks.size} chunks, cache ${cacheMb.toFixed(0)} MB (target ≤ 60 s)`);
    console.log(
      `heap after build: ${(process.memoryUsage().heapUsed / 1024 / 1024).toFixed(0)} MB (+${(heapMb() - heapBefore).toFixed(0)} MB for the index and its records)`,
    );

    const queries = [NEEDLE, "export class extends Base", `${WORDS[7]} ${WORDS[99]}`, "return promise record", WORDS[1234]!];
    const queryRuns: number[] = [];
    for (const q of queries) {
      for (let r = 0; r < 3; r++) {
        const [ms, out] = await time(() => searchCode.execute({ query: q, k: 10 }, ctx));
        queryRuns.push(ms);
        if (r === 0 && q === NEEDLE) console.log(`  needle query → ${String(out).split("\n")[0]}`);
      }
    }
    console.log(
      `search_code query (warm index, default 2 s refresh interval): median ${median(queryRuns).toFixed(0)} ms, max ${Math.max(...queryRuns).toFixed(0)} ms (target ≤ 200 ms)`,
    );
    compareMiniSearch(state.files, state.chunks, fs.statSync(cacheFile).size, queries);
    const eager = testContext({ sourceRoot: root, settings: { refreshIntervalMs: 0 } });
    const walkRuns: number[] = [];
    for (let r = 0; r < 3; r++) walkRuns.push((await time(() => searchCode.execute({ query: queries[1]!, k: 10 }, eager)))[0]);
    console.log(`search_code query forcing the freshness walk (stat of every file): median ${median(walkRuns).toFixed(0)} ms`);

    const [reloadMs] = await time(async () => {
      const fresh = new FileIndex<SearchFileData>({
        rootAbs: fs.realpathSync(root),
        cacheFile,
        version: SEARCH_INDEX_VERSION,
        maxBytes: 1024 * 1024,
        compute: chunkFile,
      });
      return fresh.refresh();
    });
    console.log(`index reload from disk cache (a new process's first call, records only): ${(reloadMs / 1000).toFixed(1)} s`);

    if (WITH_REPO_MAP) {
      const [mapMs, lines] = await time(() => repoMapLines(fs.realpathSync(root), {}));
      console.log(`repo map build (cold): ${(mapMs / 1000).toFixed(1)} s, ${lines.length} symbols`);
    }
  } finally {
    if (KEEP || GENERATE_ONLY) console.log(`kept: ${root}`);
    else fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
