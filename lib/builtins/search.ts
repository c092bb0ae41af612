import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { defineTool } from "@/lib/tools/define";
import { cacheDirFor, sharedFileIndex, type FileIndex } from "@/lib/sandbox/file-index";
import { resolveWithin } from "@/lib/sandbox/resolve";
import { decodeText } from "@/lib/sandbox/text";
import { ChunkIndex, GroupEncoder, scanTermIds, type ChunkHit, type EncodedGroup } from "./ranker";
import { chunkKey, codeSemanticIndex } from "./semantic/indexes";
import { hybridRank } from "./semantic/hybrid-search";

export const CHUNK_LINES = 40;
export const CHUNK_STEP = 30;
const MAX_FILE_BYTES = 1024 * 1024;
const SNIPPET_MAX_CHARS = 1500;
export const SEARCH_INDEX_VERSION = "search-v2";

// Definitions worth boosting: what a file *is about*. Line-anchored so calls and uses don't count.
const DEFINITION =
  /^[ \t]*(?:export[ \t]+)?(?:default[ \t]+)?(?:declare[ \t]+)?(?:abstract[ \t]+)?(?:async[ \t]+)?(?:function\*?|class|interface|type|enum|const|let|var|def|struct|fn|func|trait|impl)[ \t]+([A-Za-z_$][\w$]*)/gm;
const METHOD =
  /^[ \t]+(?:(?:public|private|protected|static|async|readonly|override|get|set)[ \t]+)*([A-Za-z_$][\w$]*)[ \t]*(?:<[^>\n]*>)?\([^)\n]*\)[ \t]*(?::[^{;=\n]*)?\{/gm;
const NOT_METHODS = new Set(["if", "for", "while", "switch", "catch", "function", "return", "with"]);

/** What the on-disk cache holds per file: its vocabulary and the chunks as a varint stream. */
export type SearchFileData = EncodedGroup;

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

function lineOf(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Names defined in the text, with their 0-based line. */
export function definedSymbols(text: string, starts = lineStarts(text)): { line: number; name: string }[] {
  const out: { line: number; name: string }[] = [];
  for (const re of [DEFINITION, METHOD]) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      const name = m[1]!;
      if (re === METHOD && NOT_METHODS.has(name)) continue;
      out.push({ line: lineOf(starts, m.index + m[0].length - name.length), name });
    }
  }
  return out;
}

/** Splits a file into overlapping windows of lines and counts their terms. */
export function chunkFile(text: string, rel: string): SearchFileData {
  const ids: number[] = [];
  const lineTerms: number[] = [];
  scanTermIds(text, ids, lineTerms);
  // A trailing newline does not start another line.
  const lineCount = text.endsWith("\n") ? lineTerms.length - 1 : lineTerms.length;
  lineTerms.push(ids.length);
  const defs = definedSymbols(text);
  const pathIds: number[] = [];
  scanTermIds(rel.replace(/[/.\-]/g, " "), pathIds);
  const encoder = new GroupEncoder();
  for (let s = 0; s < Math.max(lineCount, 1); s += CHUNK_STEP) {
    const e = Math.min(lineCount, s + CHUNK_LINES);
    const boost = [...pathIds];
    for (const d of defs) {
      // A definition counts twice: it says more about the chunk than the file's name does.
      if (d.line >= s && d.line < e) scanTermIds(`${d.name} ${d.name}`, boost);
    }
    encoder.add(s + 1, Math.max(e, s + 1), ids, lineTerms[s] ?? 0, lineTerms[e] ?? ids.length, boost);
    if (e >= lineCount) break;
  }
  return encoder.finish();
}

/**
 * How old (ms) an index may be before a call re-walks the tree: `refreshIntervalMs` in the tool's
 * settings, default 2000. Snippets are re-read through the sandbox, so a stale index never shows
 * a file that became .aiignored; it can only miss an edit made in that window.
 */
export function refreshAgeMs(settings: Record<string, unknown>): number {
  const v = settings.refreshIntervalMs;
  return typeof v === "number" && v >= 0 ? v : 2000;
}

interface SearchState {
  files: FileIndex<SearchFileData>;
  chunks: ChunkIndex;
}
const states = new Map<FileIndex<SearchFileData>, SearchState>();

/** The warm index for a root, refreshed for files changed since the last call. */
export async function searchIndexFor(rootAbs: string, settings: Record<string, unknown>, signal?: AbortSignal) {
  const files = sharedFileIndex<SearchFileData>("search", {
    rootAbs,
    cacheFile: path.join(cacheDirFor(rootAbs, settings), "search-index.jsonl"),
    version: SEARCH_INDEX_VERSION,
    maxBytes: MAX_FILE_BYTES,
    compute: chunkFile,
  });
  let state = states.get(files);
  if (!state) {
    state = { files, chunks: new ChunkIndex() };
    states.set(files, state);
  }
  const changes = await files.refresh(signal, refreshAgeMs(settings));
  for (const rel of changes.removed) state.chunks.remove(rel);
  for (const rel of changes.changed) {
    const record = files.records.get(rel);
    if (record) state.chunks.set(rel, record.data);
  }
  // Postings are compiled here, with the refresh, rather than inside the first query.
  state.chunks.prepare();
  return state;
}

function snippet(rootAbs: string, rel: string, start: number, end: number): string | null {
  // Re-admitted through the sandbox: the file may have been replaced by a link or .aiignored since.
  const target = resolveWithin(rootAbs, rel);
  if (!target.ok || !target.stat?.isFile()) return null;
  let text: string;
  try {
    text = decodeText(fs.readFileSync(target.abs));
  } catch {
    return null;
  }
  const lines = text.split("\n").slice(start - 1, end);
  const joined = lines.join("\n");
  return joined.length > SNIPPET_MAX_CHARS ? `${joined.slice(0, SNIPPET_MAX_CHARS)}\n…` : joined;
}

const searchInput = z.object({
  query: z.string().describe("What you are looking for: words, identifiers, a description."),
  k: z.number().int().min(1).max(50).default(10).describe("How many results (default 10)."),
});

export const searchCode = defineTool({
  name: "search_code",
  description: `Search the source root for code related to the query, best matches first.

Ranked lexical search (BM25 over identifiers split at camelCase and snake_case, with extra weight
for file names and the names a chunk defines, so the defining file ranks above its callers) over
~${CHUNK_LINES}-line windows of every text file; embeddings are not used (settings search.embeddings
names no embedding model). The index is built on first use and refreshed for changed files on every call.
Args: query — words or identifiers; k — number of results (default 10, at most 50).
Returns blocks "--- Result i: <path> (lines a-b) ---" followed by the snippet, or a line starting
with "Error:".`,
  input: searchInput,
  readonly: true,
  execute: async (input: z.input<typeof searchInput>, ctx) => {
    const query = typeof input.query === "string" ? input.query.trim() : "";
    if (!query) return "Error: query must not be empty";
    const k = Math.max(1, Math.min(50, Math.floor(input.k ?? 10)));
    const root = resolveWithin(ctx.sourceRoot, ".");
    if (!root.ok) return root.error;
    let state: SearchState;
    try {
      state = await searchIndexFor(root.root, ctx.settings, ctx.signal);
    } catch (err) {
      return `Error: search index unavailable: ${(err as Error).message}`;
    }
    const lexical = state.chunks.search(query, k * 4);
    const semantic = await hybridRank({
      query,
      k,
      lexical,
      keyOf: (hit) => chunkKey(hit.key, hit.start, hit.end),
      fromKey: (key) => {
        const m = /^(.*):(\d+)-(\d+)$/.exec(key);
        return m ? { key: m[1]!, start: Number(m[2]), end: Number(m[3]), score: 0 } : undefined;
      },
      index: (config) => codeSemanticIndex(root.root, cacheDirFor(root.root, ctx.settings), config, state.files),
      ctx,
      what: "chunks",
    });
    const hits = semantic.items;
    if (hits.length === 0) return `No results for "${query}".${semantic.note ? `\n${semantic.note}` : ""}`;
    const taken: ChunkHit[] = [];
    const blocks: string[] = [];
    for (const hit of hits) {
      if (blocks.length >= k) break;
      // Overlapping windows of one file say the same thing twice: keep the better one.
      if (taken.some((t) => t.key === hit.key && t.start <= hit.end && hit.start <= t.end)) continue;
      const text = snippet(root.root, hit.key, hit.start, hit.end);
      if (text === null) continue;
      taken.push(hit);
      blocks.push(`--- Result ${blocks.length + 1}: ${hit.key} (lines ${hit.start}-${hit.end}) ---\n${text}`);
    }
    const body = blocks.length > 0 ? blocks.join("\n\n") : `No results for "${query}".`;
    return semantic.note ? `${body}\n\n${semantic.note}` : body;
  },
});

/** search_code when settings name an embedding model: the same tool, described as what it then does. */
export const hybridSearchCode = defineTool({
  ...searchCode,
  description: `Search the source root for code related to the query — by meaning as well as by words — best matches first.

Hybrid search over ~${CHUNK_LINES}-line windows of every text file: BM25 over identifiers (camelCase and
snake_case split, file names and defined names weighted up) fused with embedding similarity from the
model settings search.embeddings names, so a question that shares no word with the code still finds it;
near-duplicate chunks are dropped. The indexes are built on first use and refreshed for changed files
on every call; only changed chunks are embedded again.
Args: query — a question, words or identifiers; k — number of results (default 10, at most 50).
Returns blocks "--- Result i: <path> (lines a-b) ---" followed by the snippet, then a line
"Search: …" saying what the ranking used (or a "Note:" when embeddings failed and BM25 alone
answered); or a line starting with "Error:".`,
});
