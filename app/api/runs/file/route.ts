import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { KNOWN_ARTIFACTS, tooBigError } from "@/lib/artifacts";
import { resolveWithin, showPath } from "@/lib/sandbox/resolve";
import { getSettings } from "@/lib/settings";
import { param, resolveRunsRoot } from "@/app/runs/_lib/runs-root";

export const dynamic = "force-dynamic";

const TYPES: Record<string, string> = {
  ".json": "application/json; charset=utf-8",
  ".jsonl": "application/x-ndjson; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".yaml": "text/yaml; charset=utf-8",
};

function refuse(status: number, error: string) {
  return Response.json(
    { error, code: status === 403 ? "forbidden" : status === 404 ? "not_found" : "bad_request" },
    { status, headers: { "X-Content-Type-Options": "nosniff" } },
  );
}

/**
 * GET /api/runs/file?root=&path=<run>/<artifact>[&download=1] — one run artifact as recorded.
 * Only the known artifact names (matrix.json, env.json, …) are served, and only inside the runs
 * root: this must never become a way to read arbitrary files.
 */
export function GET(request: Request) {
  const url = new URL(request.url);
  const runs = resolveRunsRoot(param(url.searchParams.get("root")));
  if (runs.error) return refuse(runs.status ?? 400, runs.error);
  const rel = param(url.searchParams.get("path"));
  if (rel === null) return refuse(400, "Missing ?path=<run folder>/<artifact file>, relative to the runs root.");
  const name = path.posix.basename(rel.replace(/\\/g, "/"));
  if (!KNOWN_ARTIFACTS.has(name)) {
    return refuse(403, `Only run artifact files can be served (${[...KNOWN_ARTIFACTS].sort().join(", ")}); refused: ${showPath(rel)}`);
  }
  const resolved = resolveWithin(runs.root, rel, { label: "runs root" });
  if (!resolved.ok) return refuse(403, resolved.error.replace(/^Error: /, ""));
  // resolveWithin followed any symlink to its real target inside the root; that target's name must be an artifact too.
  if (!KNOWN_ARTIFACTS.has(path.basename(resolved.abs))) return refuse(403, `Refused: ${showPath(rel)} leads to a file that is not a run artifact.`);
  const st = fs.statSync(resolved.abs, { throwIfNoEntry: false });
  if (!st) return refuse(404, `No such file under the runs root: ${showPath(rel)}`);
  if (!st.isFile()) return refuse(400, `Not a regular file: ${showPath(rel)}`);
  const maxBytes = getSettings().runs.maxArtifactBytes;
  if (st.size > maxBytes) return refuse(413, tooBigError(showPath(rel), st.size, maxBytes));
  // Streamed: a big artifact neither blocks the thread while it is read nor sits whole in memory.
  const body = Readable.toWeb(fs.createReadStream(resolved.abs)) as ReadableStream<Uint8Array>;
  const download = url.searchParams.get("download") === "1";
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
