// The run-artifact tools (list_runs, read_run_matrix, read_run_env, search_run_artifacts) and the
// text they give the model; one file per tool family, so four tools and their formatters share it.
import fs from "node:fs";
import path from "node:path";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import {
  describeRunDir,
  discoverRuns,
  type EnvDoc,
  envFacts,
  groupFindings,
  listRunEnvironments,
  type Matrix,
  type MatrixCell,
  MAX_DEPTH,
  preview,
  readEnvFile,
  readMatrixFile,
  readRunEntry,
  readSanitizerReportFile,
  type RunEntry,
  runSearchDocs,
  type RunSearchDoc,
  type SanitizerReport,
  summarizeRun,
  type RunSummary,
} from "@/lib/artifacts";
import { createRanker, type Ranker } from "@/lib/builtins/ranker";
import { EXAMPLE_RUNS_DIR, isDefaultRunsRootPath, noRunsYetText, rootIsMissing } from "@/lib/artifacts/runs-root-help";
import { resolveWithin, showPath, type Resolved } from "@/lib/sandbox/resolve";
import { defineTool } from "@/lib/tools/define";
import { cacheDirFor } from "@/lib/sandbox/file-index";
import { runsSemanticIndex } from "./semantic/indexes";
import type { SemanticIndex } from "./semantic/semantic-index";
import { hybridRank } from "./semantic/hybrid-search";
import type { EmbeddingsConfig, ToolContext } from "@/lib/tools/types";

export const RUNS_MAX_LISTED = 40;
export const RUNS_MAX_CHARS = 8000;
const NOT_RECORDED = "not recorded";
const LABEL = { label: "run root" } as const;

function resolveRunPath(ctx: ToolContext, p: string | undefined): Resolved | string {
  const r = resolveWithin(ctx.runsRoot, p ?? ".", LABEL);
  if (!r.ok) return r.error;
  if (!r.stat) return `Error: path not found: ${showPath(p ?? ".")}`;
  return r;
}

function joinRel(dirRel: string, name: string): string {
  return dirRel === "." ? name : `${dirRel}/${name}`;
}

/** Adds blocks until the cap; says how many were left out. */
class Capped {
  private out = "";
  private full = false;
  dropped = 0;
  constructor(private readonly max: number) {}
  add(block: string): boolean {
    if (this.full || this.out.length + block.length + 1 > this.max) {
      this.full = true;
      this.dropped++;
      return false;
    }
    this.out += (this.out ? "\n" : "") + block;
    return true;
  }
  text(what: string): string {
    return this.dropped > 0 ? `${this.out}\n... (${this.dropped} more ${what} not shown: output capped at ${this.max} chars)` : this.out;
  }
}

// ---------------------------------------------------------------------------------------------
// list_runs

const listInput = z.object({
  path: z.string().default(".").describe("Folder to search for runs, relative to the run root. Default: the root."),
});

export const listRuns = defineTool({
  name: "list_runs",
  description: `List the run folders (AORTA triage, probe and sanitizer-dashboard runs) under a folder of the run root.

Args: path — a folder relative to the run root (default ".").
Returns one line per run folder, "rel/dir: file, file, …" naming its artifacts (matrix.json,
env.json, host_env.json, meta.json, sanitizer_report.json, …) and triage environments, sorted by
path, at most ${RUNS_MAX_LISTED} lines then a count of the rest; "No runs found …"; or a line
starting with "Error:". A run is a folder holding one of those files, at most ${MAX_DEPTH} levels
below the run root. Pass a listed folder to read_run_matrix or read_run_env.`,
  input: listInput,
  readonly: true,
  execute: (input: z.infer<typeof listInput>, ctx) => {
    // A fresh clone has no ./runs: say what a run is and where examples are, not "Error:".
    if (isDefaultRunsRootPath(ctx.runsRoot) && rootIsMissing(ctx.runsRoot)) return noRunsYetText(ctx.runsRoot, EXAMPLE_RUNS_DIR);
    const target = resolveRunPath(ctx, input.path);
    if (typeof target === "string") return target;
    if (!target.stat?.isDirectory()) return `Error: not a folder: ${showPath(input.path)}`;
    const found = discoverRuns(target.root);
    if (found.error) return `Error: ${found.error}`;
    const prefix = target.rel === "." ? "" : `${target.rel}/`;
    const runs = found.runs.filter((r) => target.rel === "." || r.rel === target.rel || r.rel.startsWith(prefix));
    const lines: string[] = [];
    let more = 0;
    for (const run of runs) {
      if (lines.length >= RUNS_MAX_LISTED) {
        more++; // not resolved: a count of the rest needs no .aiignore check per run
        continue;
      }
      // .aiignore applies to runs as to any other path.
      if (run.rel !== "." && !resolveWithin(target.root, run.rel, LABEL).ok) continue;
      lines.push(runLine(run));
    }
    if (lines.length === 0) {
      return `No runs found under ${showPath(input.path ?? ".")} (a run is a folder holding matrix.json, env.json, host_env.json, meta.json or sanitizer_report.json, at most ${MAX_DEPTH} levels below the run root).`;
    }
    if (more > 0) lines.push(`... (${more} more runs not shown; pass a subfolder as path to narrow)`);
    return lines.join("\n");
  },
});

function runLine(run: RunEntry): string {
  const names = [...run.artifacts];
  const envs = listRunEnvironments(run);
  if (envs.length) names.push(`environments/{${envs.join(",")}}/env.json`);
  return `${run.rel === "." ? "./" : run.rel}: ${names.join(", ")}`;
}

// ---------------------------------------------------------------------------------------------
// read_run_matrix

const matrixInput = z.object({
  path: z.string().describe("A run folder (or its matrix.json), relative to the run root."),
});

export const readRunMatrix = defineTool({
  name: "read_run_matrix",
  description: `Read a run's matrix.json (AORTA triage/probe results) as compact text, one block per cell.

Args: path — a run folder or its matrix.json, relative to the run root (see list_runs).
Returns the run header (workload, ticket, timestamp, trials, baseline), the verdict and the failed
cells, then per cell: trials, passed/failed/error counts, failure and error rates, step times
(mean, p50/p90/p99, ratio to baseline), exit statuses, failure hints, confound and any whole-cell
error. A field the run did not record reads "${NOT_RECORDED}" (never 0). For a sanitizer run
(no matrix.json) it returns the sanitizer report instead. Capped at ${RUNS_MAX_CHARS} characters;
errors (missing or malformed file, with line:column) start with "Error:".`,
  input: matrixInput,
  readonly: true,
  execute: (input: z.infer<typeof matrixInput>, ctx) => {
    const target = resolveRunPath(ctx, input.path);
    if (typeof target === "string") return target;
    let file: string;
    let fileRel: string;
    if (target.stat?.isDirectory()) {
      const entry = describeRunDir(target.root, target.abs);
      if (!entry) return `Error: cannot read folder: ${showPath(input.path)}`;
      if (!entry.files.includes("matrix.json")) {
        if (entry.files.includes("sanitizer_report.json")) {
          const rel = joinRel(target.rel, "sanitizer_report.json");
          const report = readSanitizerReportFile(path.join(target.abs, "sanitizer_report.json"), rel);
          if (!report.ok) return `Error: ${report.error}`;
          return formatSanitizerReport(report.data, rel);
        }
        const has = entry.artifacts.length ? ` (it has ${entry.artifacts.join(", ")}; try read_run_env)` : "";
        return `Error: no matrix.json in ${target.rel}${has}`;
      }
      file = path.join(target.abs, "matrix.json");
      fileRel = joinRel(target.rel, "matrix.json");
    } else {
      file = target.abs;
      fileRel = target.rel;
      if (path.basename(file) === "sanitizer_report.json") {
        const report = readSanitizerReportFile(file, fileRel);
        return report.ok ? formatSanitizerReport(report.data, fileRel) : `Error: ${report.error}`;
      }
    }
    const m = readMatrixFile(file, fileRel);
    if (!m.ok) return `Error: ${m.error}`;
    const entry = describeRunDir(target.root, path.dirname(file));
    if (!entry) return `Error: cannot read folder of ${showPath(input.path)}`;
    // Only the matrix is summarised here, so the verdict and failed cells are the matrix's own.
    return formatMatrix(m.data, fileRel, summarizeRun({ entry, matrix: m, environments: [] }));
  },
});

const fmt = (v: number | null | undefined, digits?: number): string =>
  v === null || v === undefined ? NOT_RECORDED : digits === undefined ? String(v) : v.toFixed(digits);
const fmtStr = (v: string | null | undefined): string => (v === null || v === undefined ? NOT_RECORDED : v);

export function formatMatrix(m: Matrix, fileRel: string, summary: RunSummary): string {
  const h = m.header;
  const out = new Capped(RUNS_MAX_CHARS);
  const head = [
    `${fileRel}`,
    `workload: ${fmtStr(h.workload)} | ticket: ${h.ticket === null && !m.missingFields.includes("ticket") ? "none" : fmtStr(h.ticket)} | run_timestamp: ${fmtStr(h.run_timestamp)} | schema_version: ${h.schema_version ?? NOT_RECORDED}`,
    `trials_per_cell: ${fmt(h.trials_per_cell)} | steps_per_trial: ${fmt(h.steps_per_trial)} | baseline_cell: ${fmtStr(h.baseline_cell)}${h.stop_after ? ` | stop_after: ${preview(h.stop_after)}` : ""}`,
  ];
  const failed = summary.failedCells.map((c) => (c.error ? `${c.name} (error: ${c.error})` : `${c.name} (failed ${c.failed_count})`));
  head.push(
    `verdict: ${summary.verdict} | cells: ${m.cells.length} | failed cells: ${summary.failedCellCount ?? 0}${failed.length ? ` — ${failed.join(", ")}` : ""}`,
  );
  if (h.warnings?.length) head.push(`run warnings: ${h.warnings.join("; ")}`);
  if (m.warnings.length) head.push(`reader warnings: ${m.warnings.slice(0, 5).join("; ")}${m.warnings.length > 5 ? ` (+${m.warnings.length - 5} more)` : ""}`);
  if (m.missingFields.length)
    head.push(`${NOT_RECORDED} (${m.missingFields.length}): ${m.missingFields.slice(0, 12).join("; ")}${m.missingFields.length > 12 ? "; …" : ""}`);
  const extra = Object.entries(m.extra);
  if (extra.length) head.push(`other fields: ${extra.map(([k, v]) => `${k}=${preview(v, 60)}`).join(", ")}`);
  out.add(head.join("\n"));
  out.add("cells:");
  // Failed cells first: with a cap, they are the ones the reader needs.
  const ordered = [
    ...m.cells.filter((c) => summary.failedCells.some((f) => f.index === c.index)),
    ...m.cells.filter((c) => !summary.failedCells.some((f) => f.index === c.index)),
  ];
  for (const c of ordered) out.add(formatCell(c));
  return out.text("cells");
}

function formatCell(c: MatrixCell): string {
  const lines = [
    `- ${c.name ?? `cells[${c.index}] (name ${NOT_RECORDED})`} [environment ${fmtStr(c.environment)}; mitigations ${c.mitigations === null ? NOT_RECORDED : c.mitigations.join(", ") || "none"}]`,
    `  trials ${fmt(c.trials)}, passed ${fmt(c.passed_count)}, failed ${fmt(c.failed_count)}, errors ${fmt(c.error_count)}; failure_rate ${fmt(c.failure_rate, 3)}; error_rate ${fmt(c.error_rate, 3)}${c.unreliable ? "; UNRELIABLE" : ""}`,
    `  step ms: mean ${fmt(c.mean_step_time_ms, 2)}, std ${fmt(c.std_step_time_ms, 2)}, min ${fmt(c.min_step_time_ms, 2)}, max ${fmt(c.max_step_time_ms, 2)}, p50 ${fmt(c.p50_step_time_ms, 2)}, p90 ${fmt(c.p90_step_time_ms, 2)}, p99 ${fmt(c.p99_step_time_ms, 2)}; ratio ${c.step_time_ratio === null && !c.error ? fmt(c.step_time_ratio) : fmt(c.step_time_ratio, 3)}; source ${fmtStr(c.step_time_source)}`,
    `  exit statuses: ${
      c.exit_status_counts === null
        ? NOT_RECORDED
        : Object.entries(c.exit_status_counts)
            .map(([k, v]) => `${k}=${v}`)
            .join(", ") || "none"
    }; confound ${fmtStr(c.confound)}${c.iters_display ? `; iters ${c.iters_display}` : ""}`,
  ];
  if (c.error) lines.push(`  error: ${c.error}`);
  if (c.failure_hints === null) lines.push(`  failure hints: ${NOT_RECORDED}`);
  else if (c.failure_hints.length)
    lines.push(`  failure hints: ${c.failure_hints.map((h) => `"${h.text}"${h.count === null ? "" : ` ×${h.count}`}`).join("; ")}`);
  if (c.stop_after_note) lines.push(`  ${c.stop_after_note}`);
  if (c.top_failure_detector_id) lines.push(`  top failure detector: ${c.top_failure_detector_id}`);
  const extra = Object.entries(c.extra);
  if (extra.length) lines.push(`  other fields: ${extra.map(([k, v]) => `${k}=${preview(v, 60)}`).join(", ")}`);
  return lines.join("\n");
}

export function formatSanitizerReport(r: SanitizerReport, fileRel: string): string {
  const out = new Capped(RUNS_MAX_CHARS);
  const head = [
    `${fileRel} (sanitizer run: no matrix.json)`,
    `overall_verdict: ${fmtStr(r.overall_verdict)} | execution_status: ${fmtStr(r.execution_status)} | target: ${fmtStr(r.target)} | schema: ${fmtStr(r.schema)}`,
  ];
  if (r.warnings.length) head.push(`reader warnings: ${r.warnings.slice(0, 5).join("; ")}`);
  out.add(head.join("\n"));
  out.add("checks:");
  for (const c of r.checks) {
    out.add(
      `- ${fmtStr(c.sanitizer)}: state ${fmtStr(c.state)}, verdict ${fmtStr(c.verdict)}, reason ${c.reason ?? "none"}, returncode ${fmt(c.returncode)}, findings ${c.findings.length}${c.diagnostics_truncated ? " (diagnostics truncated)" : ""}`,
    );
  }
  const groups = groupFindings(r);
  if (groups.length) {
    out.add("findings:");
    for (const g of groups) {
      out.add(
        `- ${g.count} × ${fmtStr(g.code)} (${fmtStr(g.severity)}, ${fmtStr(g.sanitizer)}) in ${g.kernels.join(", ") || "?"}${g.example ? `: ${preview(g.example, 200)}` : ""}`,
      );
    }
  }
  return out.text("lines");
}

// ---------------------------------------------------------------------------------------------
// read_run_env

const envInput = z.object({
  path: z.string().describe("A run folder, or an env.json / host_env.json file, relative to the run root."),
});

export const readRunEnv = defineTool({
  name: "read_run_env",
  description: `Read a run's environment snapshot (env.json or host_env.json) with the key facts first.

Args: path — a run folder (env.json is preferred, else host_env.json) or the file itself, e.g.
"<run>/environments/<env>/env.json", relative to the run root.
Returns, for an AORTA probe snapshot: captured_at, partial and partial_reasons, ROCm version,
system health, GPU targets and versions, then every other block in one line each. For a sanitizer
dashboard env.json (run-area manifest): case, class, observed verdict/execution/findings/reason,
target, commit, command, then the rest. "${NOT_RECORDED}" marks fields the run did not record.
Capped at ${RUNS_MAX_CHARS} characters; errors start with "Error:".`,
  input: envInput,
  readonly: true,
  execute: (input: z.infer<typeof envInput>, ctx) => {
    const target = resolveRunPath(ctx, input.path);
    if (typeof target === "string") return target;
    let file = target.abs;
    let fileRel = target.rel;
    let others: string[] = [];
    if (target.stat?.isDirectory()) {
      const entry = describeRunDir(target.root, target.abs);
      if (!entry) return `Error: cannot read folder: ${showPath(input.path)}`;
      const name = ["env.json", "host_env.json"].find((n) => entry.files.includes(n));
      const envFiles = listRunEnvironments(entry).map((e) => joinRel(target.rel, `environments/${e}/env.json`));
      if (!name) {
        if (envFiles.length) return `Error: no env.json or host_env.json in ${target.rel}; its environments: ${envFiles.join(", ")}`;
        return `Error: no env.json or host_env.json in ${target.rel}`;
      }
      file = path.join(target.abs, name);
      fileRel = joinRel(target.rel, name);
      others = [...(name === "env.json" && entry.files.includes("host_env.json") ? [joinRel(target.rel, "host_env.json")] : []), ...envFiles];
    }
    const env = readEnvFile(file, fileRel);
    if (!env.ok) return `Error: ${env.error}`;
    return formatEnv(env.data, fileRel, others);
  },
});

export function formatEnv(env: EnvDoc, fileRel: string, others: string[] = []): string {
  const out = new Capped(RUNS_MAX_CHARS);
  const kind =
    env.kind === "probe"
      ? `environment snapshot, schema_version ${env.schema_version ?? NOT_RECORDED}`
      : `sanitizer run-area manifest, schema ${env.schema ?? NOT_RECORDED}`;
  const head = [`${fileRel} (${kind})`];
  for (const f of envFacts(env)) head.push(`${f.label}: ${f.value ?? NOT_RECORDED}`);
  if (env.warnings.length) head.push(`reader warnings: ${env.warnings.slice(0, 5).join("; ")}`);
  if (env.missingFields.length) head.push(`${NOT_RECORDED}: ${env.missingFields.join(", ")}`);
  if (others.length) head.push(`other environment files: ${others.join(", ")}`);
  out.add(head.join("\n"));
  const shown = new Set(envFacts(env).map((f) => f.label.split(".")[0]));
  const rest = env.kind === "probe" ? Object.entries(env.blocks) : Object.entries(env.raw).filter(([k]) => !shown.has(k) && k !== "observed" && k !== "schema");
  if (rest.length) out.add(env.kind === "probe" ? "other blocks:" : "other fields:");
  for (const [k, v] of rest) out.add(`- ${k}: ${preview(v, 240)}`);
  return out.text("blocks");
}

// ---------------------------------------------------------------------------------------------
// search_run_artifacts

const searchInput = z.object({
  query: z.string().min(1).describe("Words to look for: a cell or case name, an error, a hint, a kernel, a ROCm version…"),
  k: z.number().int().min(1).max(50).default(5).describe("How many results. Default 5."),
});

export const searchRunArtifacts = defineTool({
  name: "search_run_artifacts",
  description: `Search the text of all runs' artifacts, best match first.

It covers cells, failure hints, errors, environment facts, sanitizer checks and findings.

Args: query — words to look for; k — how many results (default 5, at most 50).
Returns up to k results, each "N. <run folder> — <part> (score S)" and the matching text on the
next line, where part is "run", "cell <name>", "env <file>", "check <sanitizer>" or
"findings <sanitizer>/<code>"; "No matches …"; or a line starting with "Error:". Read a hit in full
with read_run_matrix or read_run_env.`,
  input: searchInput,
  readonly: true,
  execute: async (input: z.infer<typeof searchInput>, ctx) => {
    const rootCheck = resolveWithin(ctx.runsRoot, ".", LABEL);
    if (!rootCheck.ok) return rootCheck.error;
    const found = discoverRuns(rootCheck.root);
    if (found.error) return `Error: ${found.error}`;
    const { ranker, docs } = searchIndex(rootCheck.root, found.runs);
    const k = input.k ?? 5;
    const indexOfKey = new Map(docs.map((d, i) => [runDocKey(d), i]));
    const semantic = await hybridRank({
      query: input.query,
      k,
      lexical: ranker.search(input.query, k * 4),
      keyOf: (hit) => runDocKey(docs[hit.id]!),
      fromKey: (key) => {
        const id = indexOfKey.get(key);
        return id === undefined ? undefined : { id, score: 0 };
      },
      index: (config) => runsVectorIndex(rootCheck.root, found.runs, ctx, config),
      ctx,
      what: "documents",
    });
    const hits = semantic.items;
    const lines: string[] = [];
    let n = 0;
    for (const hit of hits) {
      const doc = docs[hit.id];
      if (!doc) continue;
      if (doc.rel !== "." && !resolveWithin(rootCheck.root, doc.rel, LABEL).ok) continue;
      n++;
      const score = hit.score > 0 ? ` (score ${hit.score.toFixed(2)})` : "";
      lines.push(`${n}. ${doc.rel} — ${doc.part}${score}\n   ${preview(doc.text, 300).replace(/^"|"$/g, "")}`);
      if (n >= k) break;
    }
    const note = semantic.note ? `\n${semantic.note}` : "";
    if (n === 0) return `No matches for ${JSON.stringify(input.query)} in ${found.runs.length} runs.${note}`;
    const text = lines.join("\n");
    return (text.length > RUNS_MAX_CHARS ? `${text.slice(0, RUNS_MAX_CHARS)}\n... (truncated)` : text) + note;
  },
});

/** search_run_artifacts when settings name an embedding model. */
export const hybridSearchRunArtifacts = defineTool({
  ...searchRunArtifacts,
  description: `Search the text of all runs' artifacts (cells, failure hints, errors, environment facts, sanitizer checks and findings) by meaning as well as by words, best match first.

BM25 fused with embedding similarity from the model settings search.embeddings names, so a question
that shares no word with the artifacts still finds them; near-duplicates are dropped.
Args: query — a question or words to look for; k — how many results (default 5, at most 50).
Returns up to k results, each "N. <run folder> — <part>" and the matching text on the next line,
where part is "run", "cell <name>", "env <file>", "check <sanitizer>" or "findings <sanitizer>/<code>",
then a line "Search: …" saying what the ranking used; "No matches …"; or a line starting with "Error:".
Read a hit in full with read_run_matrix or read_run_env.`,
});

/** The vector half for the runs under a root; vectors are cached with the source root's search cache, as a runs root may be read-only. */
export function runsVectorIndex(runsRootAbs: string, runs: readonly RunEntry[], ctx: ToolContext, config: EmbeddingsConfig): SemanticIndex {
  return runsSemanticIndex(runsRootAbs, cacheDirFor(path.resolve(ctx.sourceRoot), ctx.settings), config, semanticDocs(searchIndex(runsRootAbs, runs).byRun));
}

interface RunDocsCacheEntry {
  stamp: string;
  docs: RunSearchDoc[];
}
// Bounded, so runs deleted or moved away do not stay in memory for the life of the server; the
// bound is far above a runs folder's size, so a search never rebuilds a run it just read.
const runDocsCache = new LRUCache<string, RunDocsCacheEntry>({ max: 10_000 });
let rankerCache: { root: string; key: string; ranker: Ranker<number>; docs: RunSearchDoc[]; byRun: Map<string, RunSearchDoc[]> } | null = null;

const runDocKey = (doc: RunSearchDoc) => `${doc.rel}\u0000${doc.part}`;

// Per run's docs array (replaced only when the run changed), so the vector index re-reads only changed runs.
const semanticDocsOf = new WeakMap<RunSearchDoc[], { key: string; text: string }[]>();
function semanticDocs(byRun: Map<string, RunSearchDoc[]>): Map<string, { key: string; text: string }[]> {
  const out = new Map<string, { key: string; text: string }[]>();
  for (const [rel, docs] of byRun) {
    let mapped = semanticDocsOf.get(docs);
    if (!mapped) {
      mapped = docs.map((d) => ({ key: runDocKey(d), text: `${d.rel} — ${d.part}\n${d.text}` }));
      semanticDocsOf.set(docs, mapped);
    }
    out.set(rel, mapped);
  }
  return out;
}

/** A run's docs are rebuilt when one of its files changed (mtime or size); the ranker when any run's did. */
function searchIndex(root: string, runs: readonly RunEntry[]): { ranker: Ranker<number>; docs: RunSearchDoc[]; byRun: Map<string, RunSearchDoc[]> } {
  const stamps: string[] = [];
  const all: RunSearchDoc[] = [];
  const byRun = new Map<string, RunSearchDoc[]>();
  for (const run of runs) {
    const stamp = fileStamp(run);
    stamps.push(stamp);
    let hit = runDocsCache.get(run.dir);
    if (!hit || hit.stamp !== stamp) {
      hit = { stamp, docs: runSearchDocs(readRunEntry(run)) };
      runDocsCache.set(run.dir, hit);
    }
    all.push(...hit.docs);
    byRun.set(run.dir, hit.docs);
  }
  const key = stamps.join("|");
  if (rankerCache && rankerCache.root === root && rankerCache.key === key) return rankerCache;
  const ranker = createRanker(all.map((d, i) => ({ id: i, text: d.text, boost: d.boost })));
  rankerCache = { root, key, ranker, docs: all, byRun };
  return rankerCache;
}

function fileStamp(run: RunEntry): string {
  // The environments folder is stamped too: a new environment changes the run's docs.
  const parts = [run.dir, String(statOrNull(path.join(run.dir, "environments"))?.mtimeMs ?? "-")];
  const files = [...run.artifacts.filter((f) => f.endsWith(".json")), ...listRunEnvironments(run).map((e) => path.join("environments", e, "env.json"))];
  for (const f of files) {
    const st = statOrNull(path.join(run.dir, f));
    parts.push(st ? `${st.mtimeMs}:${st.size}` : "-");
  }
  return parts.join(";");
}

function statOrNull(p: string) {
  try {
    return fs.statSync(p);
  } catch {
    return null;
  }
}
