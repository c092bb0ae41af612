import "server-only";
import fs from "node:fs";
import path from "node:path";
import { Document, isSeq, parseDocument } from "yaml";
import { COLLECTION_SUFFIX, CollectionError, parseCollection } from "@/lib/evals/collection";
import { savedCallSchema } from "@/lib/evals/collection-schema";
import { resolveWithin } from "@/lib/sandbox/resolve";
import { appendBlockItem, sameNames, writeAtomic } from "@/lib/server/evals/save-case";
import { audit } from "@/lib/server/auth/audit";
import { HttpError } from "@/lib/server/http/http-error";
import { sourceRootOf } from "@/lib/settings";
import type { Settings } from "@/lib/settings/schema";
import { listCollections } from "./collections";

/** Each part of the file's path: plain names, so the path cannot climb out or hide. */
const SEGMENT = /^[\w.-]+$/;

export interface CollectionFile {
  /** Relative to the source root. */
  file: string;
  name: string | null;
  calls: number | null;
  error: string | null;
}

/** The collections in the source root a call can be saved into (the examples are Toolroom's, not yours). */
export function collectionFiles(settings: Settings): CollectionFile[] {
  return listCollections(settings)
    .filter((c) => c.key.startsWith("source:"))
    .map((c) => ({ file: c.label, name: c.collection?.name ?? null, calls: c.collection?.calls.length ?? null, error: c.error }));
}

export interface SaveCallInput {
  /** Relative to the source root: an existing collection, or a new name ending .calls.yaml. */
  file: string;
  /** The call as YAML or JSON (name, tool, input, expect). */
  text: string;
  dryRun?: boolean;
}

export interface SaveCallResult {
  file: string;
  /** What /collections lists it as. */
  key: string;
  callName: string;
  calls: number;
  created: boolean;
  saved: boolean;
}

const invalid = (lines: string[]) => new HttpError(400, lines.join("\n"), "invalid_call");

function readCall(text: string): { name: string; node: unknown; yaml: string } {
  const doc = parseDocument(text, { prettyErrors: false });
  if (doc.errors.length) throw invalid(doc.errors.map((e) => `YAML: ${e.message.split("\n")[0]}`));
  const parsed = savedCallSchema.safeParse(doc.toJS());
  if (!parsed.success)
    throw invalid(
      parsed.error.issues.flatMap((i) =>
        i.code === "unrecognized_keys"
          ? i.keys.map((k) => `key ${[...i.path, k].map(String).join(".")}: unknown key`)
          : [`${i.path.length ? `key ${i.path.map(String).join(".")}` : "the call"}: ${i.message}`],
      ),
    );
  return { name: parsed.data.name, node: doc.contents, yaml: doc.toString() };
}

/** Where the file is: inside the source root through the sandbox (no `..`, no link, not .aiignored), ending .calls.yaml. */
function target(settings: Settings, file: string): { abs: string; exists: boolean } {
  if (!file.endsWith(COLLECTION_SUFFIX) || file.length === COLLECTION_SUFFIX.length)
    throw new HttpError(400, `A collection file is named like name${COLLECTION_SUFFIX} (got ${JSON.stringify(file)}).`, "bad_path");
  if (file.split("/").some((p) => !SEGMENT.test(p) || p === "." || p === ".."))
    throw new HttpError(
      400,
      `A collection's path is folders and a name inside the source root: letters, digits, '.', '_' and '-' (got ${JSON.stringify(file)}).`,
      "bad_path",
    );
  const resolved = resolveWithin(sourceRootOf(settings), file);
  if (!resolved.ok) throw new HttpError(400, `${resolved.error.replace(/^Error: /, "")} Collections are saved inside the source root only.`, "bad_path");
  if (resolved.rel !== file)
    throw new HttpError(400, `${file} is a link (to ${resolved.rel}); calls are saved into real files in the source root.`, "bad_path");
  if (resolved.stat && !resolved.stat.isFile()) throw new HttpError(400, `${file} is not a file.`, "bad_path");
  return { abs: resolved.abs, exists: resolved.stat !== null };
}

/**
 * Appends a call to a collection in the source root (or starts one there), keeping the file's other
 * bytes; a call name it has is refused (409); the result must load as a collection, or nothing is
 * written. Nothing is awaited before the write (two saves cannot interleave); the audit line follows it.
 */
export async function saveCall(settings: Settings, input: SaveCallInput): Promise<SaveCallResult> {
  const call = readCall(input.text);
  const where = target(settings, input.file);
  let doc: Document;
  let text: string | undefined;
  if (where.exists) {
    const before = fs.readFileSync(where.abs, "utf8");
    try {
      parseCollection(before, input.file);
    } catch (error) {
      throw new HttpError(400, `${input.file} does not load as a collection now; fix it first:\n${(error as Error).message}`, "invalid_collection");
    }
    doc = parseDocument(before);
    const calls = doc.get("calls", true);
    if (!isSeq(calls)) throw new HttpError(400, `${input.file}: calls is not a list.`, "invalid_collection");
    if (calls.items.some((item) => (item as { get?: (k: string) => unknown }).get?.("name") === call.name))
      throw new HttpError(409, `${input.file} has a call named "${call.name}" already: choose another name.`, "duplicate_call");
    calls.items.push(call.node);
    text = appendBlockItem(before, calls, call.yaml);
  } else {
    doc = new Document({
      name: path
        .basename(input.file)
        .slice(0, -COLLECTION_SUFFIX.length)
        .replace(/[^\w.-]/g, "-"),
      calls: [],
    });
    (doc.get("calls", true) as { items: unknown[] }).items.push(call.node);
    doc.commentBefore = ` Saved from Toolroom (Save to collection). Run it: npx toolroom collection run ${input.file}`;
  }
  const names = (doc.toJS() as { calls: { name?: unknown }[] }).calls.map((c) => c.name);
  if (text === undefined || !sameNames(text, names, "calls")) text = doc.toString();
  let calls: number;
  try {
    calls = parseCollection(text, input.file).calls.length;
  } catch (error) {
    if (error instanceof CollectionError) throw invalid([error.message]);
    throw error;
  }
  if (!input.dryRun) {
    if (!where.exists) fs.mkdirSync(path.dirname(where.abs), { recursive: true });
    writeAtomic(where.abs, text);
    await audit("collection.call-saved", input.file, { call: call.name, created: !where.exists });
  }
  return { file: input.file, key: `source:${input.file}`, callName: call.name, calls, created: !where.exists, saved: !input.dryRun };
}
