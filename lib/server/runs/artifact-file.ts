import "server-only";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { KNOWN_ARTIFACTS, tooBigError } from "@/lib/artifacts";
import { resolveWithin, showPath } from "@/lib/sandbox/resolve";
import { getSettings } from "@/lib/settings";
import { HttpError } from "@/lib/server/http/http-error";
import { resolveRunsRoot } from "./runs-root";

const TYPES: Record<string, string> = {
  ".json": "application/json; charset=utf-8",
  ".jsonl": "application/x-ndjson; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".yaml": "text/yaml; charset=utf-8",
};

function refused(status: number, error: string): HttpError {
  return new HttpError(status, error, status === 403 ? "forbidden" : status === 404 ? "not_found" : status === 413 ? "artifact_too_large" : "bad_request");
}

/**
 * One run artifact as recorded, streamed. Only the known artifact names (matrix.json, env.json, …)
 * are served, and only inside the runs root: this must never become a way to read arbitrary files.
 */
export function artifactFileResponse(override: string | null, rel: string | null, download: boolean): Response {
  const runs = resolveRunsRoot(override);
  if (runs.error) throw refused(runs.status ?? 400, runs.error);
  if (rel === null) throw refused(400, "Missing ?path=<run folder>/<artifact file>, relative to the runs root.");
  const name = path.posix.basename(rel.replace(/\\/g, "/"));
  if (!KNOWN_ARTIFACTS.has(name)) {
    throw refused(403, `Only run artifact files can be served (${[...KNOWN_ARTIFACTS].sort().join(", ")}); refused: ${showPath(rel)}`);
  }
  const resolved = resolveWithin(runs.root, rel, { label: "runs root" });
  if (!resolved.ok) throw refused(403, resolved.error.replace(/^Error: /, ""));
  // resolveWithin followed any symlink to its real target inside the root; that target's name must be an artifact too.
  if (!KNOWN_ARTIFACTS.has(path.basename(resolved.abs))) throw refused(403, `Refused: ${showPath(rel)} leads to a file that is not a run artifact.`);
  const st = fs.statSync(resolved.abs, { throwIfNoEntry: false });
  if (!st) throw refused(404, `No such file under the runs root: ${showPath(rel)}`);
  if (!st.isFile()) throw refused(400, `Not a regular file: ${showPath(rel)}`);
  const maxBytes = getSettings().runs.maxArtifactBytes;
  if (st.size > maxBytes) throw refused(413, tooBigError(showPath(rel), st.size, maxBytes));
  // Streamed: a big artifact neither blocks the thread while it is read nor sits whole in memory.
  const body = Readable.toWeb(fs.createReadStream(resolved.abs)) as ReadableStream<Uint8Array>;
  const filename = resolved.rel.replace(/\//g, "_");
  return new Response(body, {
    headers: {
      "Content-Type": TYPES[path.extname(name)] ?? "text/plain; charset=utf-8",
      "Content-Length": String(st.size),
      "Content-Disposition": `${download ? "attachment" : "inline"}; filename="${filename.replace(/["\\\r\n]/g, "_")}"`,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "no-store",
    },
  });
}
