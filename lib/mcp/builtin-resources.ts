import type { BlobResourceContents, Resource, ResourceTemplate, TextResourceContents } from "@modelcontextprotocol/sdk/types.js";

export type TextOrBlob = TextResourceContents | BlobResourceContents;
import fs from "node:fs/promises";
import path from "node:path";
import { describeRunDir, discoverRunsAsync } from "@/lib/artifacts";
import { resolveWithin } from "@/lib/sandbox/resolve";
import { decodeText, looksBinary } from "@/lib/sandbox/text";
import { ProtocolError } from "./call";

/** Roots the built-in resources read, from the settings. */
export interface ResourceRoots {
  sourceRoot: string;
  runsRoot: string;
}

/** The spec's "Resource not found". */
export const RESOURCE_NOT_FOUND = -32002;
/** A resource larger than this is refused rather than sent in one message. */
export const MAX_RESOURCE_BYTES = 20 * 1024 * 1024;
/** Runs listed by resources/list; the rest are reachable through the run template. */
const MAX_LISTED_RUNS = 200;
const MAX_COMPLETIONS = 100;
const RUN_FILES = ["matrix.json", "env.json"] as const;

const RUN_PREFIX = "toolroom://runs/";
const SOURCE_PREFIX = "toolroom://source/";

export const builtinTemplates: ResourceTemplate[] = [
  {
    uriTemplate: `${RUN_PREFIX}{+run}/matrix.json`,
    name: "run-matrix",
    title: "Run matrix",
    description: "matrix.json of a run under runsRoot (the run's folder relative to runsRoot).",
    mimeType: "application/json",
  },
  {
    uriTemplate: `${RUN_PREFIX}{+run}/env.json`,
    name: "run-env",
    title: "Run environment",
    description: "env.json of a run under runsRoot.",
    mimeType: "application/json",
  },
  {
    uriTemplate: `${SOURCE_PREFIX}{+path}`,
    name: "source-file",
    title: "Source file",
    description: "A file of the source root, read-only, through the sandbox (.aiignore'd files and escapes are refused).",
  },
];

/** The runs' matrix.json and env.json files, newest discovery first, bounded. */
export async function listBuiltinResources(roots: ResourceRoots): Promise<Resource[]> {
  const found = await discoverRunsAsync(roots.runsRoot);
  const out: Resource[] = [];
  for (const run of found.runs) {
    if (out.length >= MAX_LISTED_RUNS) break;
    if (run.rel === "." || !resolveWithin(found.root, run.rel, { label: "run root" }).ok) continue;
    for (const file of RUN_FILES) {
      if (run.files.includes(file))
        out.push({
          uri: `${RUN_PREFIX}${encodePath(run.rel)}/${file}`,
          name: `${run.rel}/${file}`,
          description: `${file} of run ${run.rel}`,
          mimeType: "application/json",
        });
    }
  }
  return out;
}

/** Reads a `toolroom://` URI, or returns null when the URI is not one of ours. */
export async function readBuiltinResource(uri: string, roots: ResourceRoots): Promise<TextOrBlob | null> {
  if (uri.startsWith(RUN_PREFIX)) {
    const rel = decodePath(uri.slice(RUN_PREFIX.length));
    const file = path.posix.basename(rel);
    const dir = path.posix.dirname(rel);
    if (!(RUN_FILES as readonly string[]).includes(file) || dir === ".") throw notFound(uri, "a run resource is <run folder>/matrix.json or env.json");
    const folder = resolveWithin(roots.runsRoot, dir, { label: "run root" });
    if (!folder.ok) throw notFound(uri, folder.error);
    const run = describeRunDir(folder.root, folder.rel);
    if (!run?.files.includes(file)) throw notFound(uri, `run ${dir} has no ${file}`);
    return { uri, mimeType: "application/json", text: await readBounded(path.join(run.dir, file), uri).then((b) => decodeText(b)) };
  }
  if (uri.startsWith(SOURCE_PREFIX)) {
    const target = resolveWithin(roots.sourceRoot, decodePath(uri.slice(SOURCE_PREFIX.length)));
    if (!target.ok) throw notFound(uri, target.error);
    if (!target.stat?.isFile()) throw notFound(uri, "no such file in the source root");
    const bytes = await readBounded(target.abs, uri);
    const mimeType = mimeTypeOf(target.abs);
    return looksBinary(bytes)
      ? { uri, mimeType: mimeType ?? "application/octet-stream", blob: bytes.toString("base64") }
      : { uri, mimeType: mimeType ?? "text/plain", text: decodeText(bytes) };
  }
  return null;
}

/** Completes a built-in template's variable: run folders, or source paths one folder at a time. */
export async function completeBuiltin(uriTemplate: string, variable: string, value: string, roots: ResourceRoots): Promise<string[] | null> {
  if (uriTemplate.startsWith(RUN_PREFIX) && variable === "run") {
    const found = await discoverRunsAsync(roots.runsRoot);
    const file = uriTemplate.endsWith("env.json") ? "env.json" : "matrix.json";
    return found.runs
      .filter((r) => r.rel !== "." && r.rel.startsWith(value) && r.files.includes(file))
      .map((r) => r.rel)
      .slice(0, MAX_COMPLETIONS);
  }
  if (uriTemplate.startsWith(SOURCE_PREFIX) && variable === "path") {
    const slash = value.lastIndexOf("/");
    const dir = slash === -1 ? "." : value.slice(0, slash);
    const folder = resolveWithin(roots.sourceRoot, dir);
    if (!folder.ok || !folder.stat?.isDirectory()) return [];
    const entries = await fs.readdir(folder.abs, { withFileTypes: true }).catch(() => []);
    const prefix = slash === -1 ? "" : `${value.slice(0, slash)}/`;
    return entries
      .map((e) => `${prefix}${e.name}${e.isDirectory() ? "/" : ""}`)
      .filter((p) => p.startsWith(value) && resolveWithin(roots.sourceRoot, p).ok)
      .sort()
      .slice(0, MAX_COMPLETIONS);
  }
  return null;
}

async function readBounded(file: string, uri: string): Promise<Buffer> {
  const stat = await fs.stat(file);
  if (stat.size > MAX_RESOURCE_BYTES)
    throw new ProtocolError(RESOURCE_NOT_FOUND, `${uri} is too large to send (${stat.size} bytes, at most ${MAX_RESOURCE_BYTES})`);
  return fs.readFile(file);
}

function notFound(uri: string, why: string): ProtocolError {
  return new ProtocolError(RESOURCE_NOT_FOUND, `Resource not found: ${uri} (${why.replace(/^Error: /, "")})`);
}

const encodePath = (rel: string) => rel.split("/").map(encodeURIComponent).join("/");
function decodePath(p: string): string {
  try {
    return p.split("/").map(decodeURIComponent).join("/");
  } catch {
    return p;
  }
}

const MIME: Record<string, string> = {
  ".json": "application/json",
  ".md": "text/markdown",
  ".ts": "text/typescript",
  ".tsx": "text/typescript",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".py": "text/x-python",
  ".yaml": "application/yaml",
  ".yml": "application/yaml",
  ".html": "text/html",
  ".css": "text/css",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".svg": "image/svg+xml",
  ".wav": "audio/wav",
  ".pdf": "application/pdf",
};
function mimeTypeOf(file: string): string | undefined {
  return MIME[path.extname(file).toLowerCase()];
}
