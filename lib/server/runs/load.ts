import "server-only";
import { cachedRunRows, cachedRunView, diffedRuns, evalCaseOf, evalTranscriptOf } from "@/lib/artifacts/cached";
import { describeRunDir, discoverRunsAsync } from "@/lib/artifacts";
import type { EvalCaseDetail, EvalRunView, EvalTranscriptView, RunDiff, RunListResponse, RunView } from "@/lib/artifacts/view/types";
import { cellCost, sumCosts } from "@/lib/evals/cost";
import { pricingOf } from "@/lib/settings/pricing";
import { resolveWithin, showPath } from "@/lib/sandbox/resolve";
import { rootIsMissing } from "@/lib/artifacts/runs-root-help";
import { getSettings, isDefaultRunsRoot } from "@/lib/settings";
import { HttpError } from "@/lib/server/http/http-error";
import { exampleRunsDir, resolveRunsRoot } from "./runs-root";

const LABEL = { label: "runs root" } as const;

function readOptions() {
  return { maxBytes: getSettings().runs.maxArtifactBytes };
}

export type Loaded<T> = { ok: true; data: T } | { ok: false; status: number; error: string };

/** The runs table. A refused or unreadable override still answers the list shape, with its status. */
export async function loadRunList(override: string | null, options: { fresh?: boolean } = {}): Promise<RunListResponse & { status: number }> {
  const r = resolveRunsRoot(override);
  if (r.error) return { root: r.root, override, rootError: r.error, runs: [], status: r.status ?? 400 };
  const examples = override === null ? exampleRunsDir() : null;
  if (override === null && isDefaultRunsRoot(getSettings()) && rootIsMissing(r.root)) {
    return { root: r.root, override, rootError: null, noRunsYet: true, examples, runs: [], status: 200 };
  }
  const d = await discoverRunsAsync(r.root, options);
  const runs = await cachedRunRows(d.runs, readOptions());
  return { root: d.root, override, rootError: d.error ?? d.truncated, examples, runs, status: 200 };
}

/** Resolves one run folder, bounded to the runs root: `..`, absolute and symlinked escapes are refused. */
function findRun(root: string, rel: string | null) {
  if (rel === null) return { ok: false, status: 400, error: "No run given: add ?path=<run folder relative to the runs root>." } as const;
  const resolved = resolveWithin(root, rel, LABEL);
  if (!resolved.ok) return { ok: false, status: 403, error: resolved.error.replace(/^Error: /, "") } as const;
  if (!resolved.stat) return { ok: false, status: 404, error: `No run folder at ${showPath(rel)} under ${root}.` } as const;
  if (!resolved.stat.isDirectory()) return { ok: false, status: 400, error: `${showPath(rel)} is a file, not a run folder.` } as const;
  const entry = describeRunDir(resolved.root, resolved.abs);
  if (!entry) return { ok: false, status: 404, error: `Cannot read the folder ${showPath(rel)}.` } as const;
  if (entry.artifacts.length === 0)
    return {
      ok: false,
      status: 404,
      error: `${showPath(rel)} holds no run artifacts (matrix.json, env.json, host_env.json, meta.json or sanitizer_report.json).`,
    } as const;
  return { ok: true, entry, root: resolved.root } as const;
}

/**
 * One run's page: the view with its first page of cells (the rest come from GET /api/runs/cells),
 * and the runs nested inside it (a dashboard run's cases), from the cached discovery.
 */
export async function loadRunView(override: string | null, rel: string | null): Promise<Loaded<RunView>> {
  const r = resolveRunsRoot(override);
  if (r.error) return { ok: false, status: r.status ?? 400, error: r.error };
  const found = findRun(r.root, rel);
  if (!found.ok) return found;
  const { entry } = found;
  const prefix = entry.rel === "." ? "" : `${entry.rel}/`;
  const d = await discoverRunsAsync(r.root);
  const nested = d.error ? [] : d.runs.filter((e) => e.rel !== entry.rel && e.rel.startsWith(prefix) && !e.rel.slice(prefix.length).includes("/"));
  try {
    const [view, children] = await Promise.all([cachedRunView(entry, r.root, readOptions()), cachedRunRows(nested, readOptions())]);
    const evalView = view.view.eval ? priced(view.view.eval) : null;
    return { ok: true, data: { ...view.view, override, children, eval: evalView } };
  } catch (e) {
    return { ok: false, status: 500, error: `${showPath(entry.rel)}: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** An eval run's costs under today's `llms.<name>.pricing` (so they are not cached with the view). */
function priced(view: EvalRunView): EvalRunView {
  const settings = getSettings();
  const costs = view.columns.map((c) => cellCost(c.tokens, pricingOf(settings, c.model)));
  return { ...view, costs, totalCost: sumCosts(costs) };
}

/** An eval run's folder (one with cases.json) under the runs root, or the refusal as an HttpError. */
function findEvalRun(override: string | null, rel: string | null) {
  const r = resolveRunsRoot(override);
  if (r.error) throw new HttpError(r.status ?? 400, r.error, "bad_request");
  const found = findRun(r.root, rel);
  if (!found.ok) throw new HttpError(found.status, found.error, found.status === 403 ? "forbidden" : found.status === 404 ? "not_found" : "bad_request");
  if (!found.entry.files.includes("cases.json")) throw new HttpError(404, `${showPath(found.entry.rel)} is not an eval run (no cases.json).`, "not_found");
  return found.entry;
}

async function readEvalRun<T>(entry: { rel: string }, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    throw new HttpError(500, `${showPath(entry.rel)}: ${e instanceof Error ? e.message : String(e)}`, "unreadable_run");
  }
}

/** GET /api/runs/eval-case: one case in one cell of an eval run, trial by trial, expected against actual calls. */
export async function loadEvalCase(override: string | null, rel: string | null, caseName: string, cell: string): Promise<EvalCaseDetail> {
  const entry = findEvalRun(override, rel);
  return readEvalRun(entry, () => evalCaseOf(entry, caseName, cell, readOptions()));
}

/** GET /api/runs/eval-transcript: one trial's transcript, kept in the run folder by a CLI run. */
export async function loadEvalTranscript(
  override: string | null,
  rel: string | null,
  caseName: string,
  cell: string,
  trial: number,
): Promise<EvalTranscriptView> {
  const entry = findEvalRun(override, rel);
  const read = await readEvalRun(entry, () => evalTranscriptOf(entry, caseName, cell, trial, readOptions()));
  if (!read.ok) throw new HttpError(read.status, read.error, read.status === 404 ? "not_found" : "unreadable_transcript");
  return read.view;
}

/** One page of a run's matrix cells, as the JSON text of a PackedCells. */
async function loadCellPage(override: string | null, rel: string | null, page: number): Promise<Loaded<string>> {
  const r = resolveRunsRoot(override);
  if (r.error) return { ok: false, status: r.status ?? 400, error: r.error };
  const found = findRun(r.root, rel);
  if (!found.ok) return found;
  try {
    const view = await cachedRunView(found.entry, r.root, readOptions());
    const text = view.pages[page];
    if (text === undefined) return { ok: false, status: 404, error: `No cell page ${page}: ${showPath(found.entry.rel)} has ${view.pages.length} page(s).` };
    return { ok: true, data: text };
  } catch (e) {
    return { ok: false, status: 500, error: `${showPath(found.entry.rel)}: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** Two runs side by side; big artifacts are read in a worker thread, as for a run page. */
export async function loadRunDiff(override: string | null, a: string | null, b: string | null): Promise<Loaded<RunDiff>> {
  const r = resolveRunsRoot(override);
  if (r.error) return { ok: false, status: r.status ?? 400, error: r.error };
  if (a === null || b === null) return { ok: false, status: 400, error: "Pick two runs: add ?a=<run>&b=<run> (folders relative to the runs root)." };
  const fa = findRun(r.root, a);
  if (!fa.ok) return { ...fa, error: `Run A: ${fa.error}` };
  const fb = findRun(r.root, b);
  if (!fb.ok) return { ...fb, error: `Run B: ${fb.error}` };
  try {
    return { ok: true, data: await diffedRuns(fa.entry, fb.entry, r.root, override, readOptions()) };
  } catch (e) {
    return { ok: false, status: 500, error: e instanceof Error ? e.message : String(e) };
  }
}

/** GET /api/runs: the list shape, with the root's error (and `code` for a refused one) beside it. */
export async function runListResponse(override: string | null, fresh: boolean): Promise<Response> {
  const { status, ...list } = await loadRunList(override, { fresh });
  if (status === 403) return Response.json({ ...list, error: list.rootError, code: "root_not_allowed" }, { status });
  return Response.json(list, { status: list.rootError && list.override ? status : 200 });
}

/** GET /api/runs/cells: one page of cells as stored JSON text, or the refusal in the one error shape. */
export async function cellPageResponse(override: string | null, rel: string | null, page: number): Promise<Response> {
  const loaded = await loadCellPage(override, rel, page);
  if (!loaded.ok) throw new HttpError(loaded.status, loaded.error, loaded.status === 403 ? "forbidden" : loaded.status === 404 ? "not_found" : "bad_request");
  return new Response(loaded.data, { headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" } });
}
