import "server-only";
import fs from "node:fs";
import path from "node:path";
import { COLLECTION_SUFFIX, CollectionError, loadCollection, type LoadedCollection } from "@/lib/evals/collection";
import type { Collection } from "@/lib/evals/collection-schema";
import { resolveWithin } from "@/lib/sandbox/resolve";
import { walkSync } from "@/lib/sandbox/walk";
import { HttpError } from "@/lib/server/http/http-error";
import { toolroomPackage } from "@/lib/server/tools-page/package-info";
import { sourceRootOf } from "@/lib/settings";
import type { Settings } from "@/lib/settings/schema";

/** The walk of the source root for collections stops after this many entries, as the suites' does. */
const MAX_ENTRIES = 20_000;
/** One listing parses at most this much (YAML on the request thread): files past it are listed unread. */
const MAX_LISTING_BYTES = 4 * 1024 * 1024;

export interface CollectionListing {
  /** What the page sends back: `source:<rel>` or `examples:<name>`; never a free path. */
  key: string;
  /** Shown: relative to the source root, or `examples/collections/<name>`. */
  label: string;
  collection: Collection | null;
  /** Why it does not load (every problem, one a line with its line number), when it does not. */
  error: string | null;
}

const examplesDir = () => path.join(toolroomPackage().dir, "examples/collections");

function describe(key: string, label: string, file: string, budget: { read: number }): CollectionListing {
  try {
    const size = fs.statSync(file).size;
    if (budget.read + size > MAX_LISTING_BYTES) throw new CollectionError(`${label}: not read: the collections listed before it already hold 4 MB`);
    budget.read += size;
    return { key, label, collection: loadCollection(file, label).collection, error: null };
  } catch (error) {
    return { key, label, collection: null, error: (error as Error).message };
  }
}

/** `*.calls.yaml` under the source root (the sandbox's walk: .aiignore, no symlinks) and Toolroom's examples/collections. */
export function listCollections(settings: Settings): CollectionListing[] {
  const found = new Map<string, CollectionListing>();
  const root = fs.realpathSync(sourceRootOf(settings));
  const budget = { read: 0 };
  let seen = 0;
  for (const entry of walkSync(root, ".")) {
    if (++seen > MAX_ENTRIES) break;
    if (entry.name.endsWith(COLLECTION_SUFFIX)) found.set(entry.abs, describe(`source:${entry.rel}`, entry.rel, entry.abs, budget));
  }
  const examples = examplesDir();
  const names = fs.existsSync(examples)
    ? fs
        .readdirSync(examples)
        .filter((n) => n.endsWith(COLLECTION_SUFFIX))
        .sort()
    : [];
  for (const name of names) {
    const file = fs.realpathSync(path.join(examples, name));
    if (!found.has(file)) found.set(file, describe(`examples:${name}`, `examples/collections/${name}`, file, budget));
  }
  return [...found.values()];
}

/**
 * The collection a key names, loaded (with `vars` given beside it): a source-root one through the
 * sandbox (no escape, no link, not .aiignored), an example by its plain name. A bad key is a 404,
 * a file that does not load a 400 with its problems.
 */
export function collectionByKey(settings: Settings, key: string, vars: Iterable<string> = []): LoadedCollection & { label: string } {
  let file: string;
  let label: string;
  if (key.startsWith("examples:")) {
    const name = key.slice("examples:".length);
    if (!/^[\w.-]+$/.test(name) || !name.endsWith(COLLECTION_SUFFIX))
      throw new HttpError(404, `No example collection is named ${JSON.stringify(name)}.`, "unknown_collection");
    file = path.join(examplesDir(), name);
    label = `examples/collections/${name}`;
  } else if (key.startsWith("source:")) {
    const rel = key.slice("source:".length);
    const resolved = resolveWithin(sourceRootOf(settings), rel);
    if (!resolved.ok || !rel.endsWith(COLLECTION_SUFFIX) || resolved.rel !== rel || !resolved.stat?.isFile())
      throw new HttpError(404, `No collection ${JSON.stringify(rel)} in the source root.`, "unknown_collection");
    file = resolved.abs;
    label = rel;
  } else throw new HttpError(404, `Collections are named source:<path> or examples:<name> (got ${JSON.stringify(key)}).`, "unknown_collection");
  if (!fs.existsSync(file)) throw new HttpError(404, `No collection ${label}.`, "unknown_collection");
  try {
    return { ...loadCollection(file, label, vars), label };
  } catch (error) {
    if (error instanceof CollectionError) throw new HttpError(400, error.message, "invalid_collection");
    throw error;
  }
}
