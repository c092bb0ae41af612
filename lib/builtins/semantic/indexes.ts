import path from "node:path";
import fs from "node:fs";
import type { FileIndex } from "@/lib/sandbox/file-index";
import { resolveWithin } from "@/lib/sandbox/resolve";
import { decodeText } from "@/lib/sandbox/text";
import { encodedDocLines, type EncodedGroup } from "../ranker";
import type { EmbeddingsConfig } from "@/lib/tools/types";
import { SemanticIndex, type SemanticStatus } from "./semantic-index";
import { VectorCache } from "./vector-cache";

export type IndexKind = "code" | "runs";

const caches = new Map<string, VectorCache>();
const indexes = new Map<string, { kind: IndexKind; root: string; index: SemanticIndex; seen: Map<string, unknown> }>();

/** One vector cache file per cache folder, shared by both kinds of index and every model. */
function cacheIn(cacheDir: string): VectorCache {
  const file = path.join(cacheDir, "embeddings.sqlite");
  let cache = caches.get(file);
  if (!cache) {
    cache = new VectorCache(file);
    caches.set(file, cache);
  }
  return cache;
}

function entryFor(kind: IndexKind, root: string, cacheDir: string, config: EmbeddingsConfig) {
  const key = `${kind}\0${root}\0${config.id}`;
  let entry = indexes.get(key);
  if (!entry) {
    entry = { kind, root, index: new SemanticIndex(config, cacheIn(cacheDir)), seen: new Map() };
    indexes.set(key, entry);
  }
  entry.index.config = config;
  return entry;
}

/** A chunk's key in both halves of the hybrid index. */
export const chunkKey = (rel: string, start: number, end: number) => `${rel}:${start}-${end}`;

/**
 * The code index's vector half, brought up to date with the lexical index's files: a file whose
 * record changed has its chunks re-read (through the sandbox) and re-hashed; only chunks whose
 * text is new get embedded.
 */
export function codeSemanticIndex(rootAbs: string, cacheDir: string, config: EmbeddingsConfig, files: FileIndex<EncodedGroup>): SemanticIndex {
  const { index, seen } = entryFor("code", rootAbs, cacheDir, config);
  for (const rel of seen.keys()) {
    if (!files.records.has(rel)) {
      index.removeGroup(rel);
      seen.delete(rel);
    }
  }
  for (const [rel, record] of files.records) {
    if (seen.get(rel) === record) continue;
    seen.set(rel, record);
    const target = resolveWithin(rootAbs, rel);
    let text: string;
    try {
      if (!target.ok) throw new Error(target.error);
      text = decodeText(fs.readFileSync(target.abs));
    } catch {
      index.removeGroup(rel);
      continue;
    }
    const lines = text.split("\n");
    index.setGroup(
      rel,
      encodedDocLines(record.data).map(([start, end]) => ({ key: chunkKey(rel, start, end), text: `${rel}\n${lines.slice(start - 1, end).join("\n")}` })),
    );
  }
  return index;
}

/** The run documents' vector half: a run's documents are re-read when its document list changed. */
export function runsSemanticIndex(
  runsRoot: string,
  cacheDir: string,
  config: EmbeddingsConfig,
  docsByRun: ReadonlyMap<string, readonly { key: string; text: string }[]>,
): SemanticIndex {
  const { index, seen } = entryFor("runs", runsRoot, cacheDir, config);
  for (const rel of seen.keys()) {
    if (!docsByRun.has(rel)) {
      index.removeGroup(rel);
      seen.delete(rel);
    }
  }
  for (const [rel, docs] of docsByRun) {
    if (seen.get(rel) === docs) continue;
    seen.set(rel, docs);
    index.setGroup(rel, docs);
  }
  return index;
}

/** Every index this process holds, for the tool pages and `toolroom index`. */
export function semanticStatuses(): { kind: IndexKind; root: string; status: SemanticStatus }[] {
  return [...indexes.values()].map(({ kind, root, index }) => ({ kind, root, status: index.status() }));
}
