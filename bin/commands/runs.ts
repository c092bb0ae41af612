import path from "node:path";
import type { Command } from "commander";
import { discoverRuns, envFacts, readRun, readRunEntry, type RunData, type RunSummary, summarizeRun } from "@/lib/artifacts";
import type { MatrixCell } from "@/lib/artifacts/matrix";
import { EXAMPLE_RUNS_DIR, noRunsYetText, rootIsMissing } from "@/lib/artifacts/runs-root-help";
import { resolveWithin } from "@/lib/sandbox/resolve";
import { toolroomPackage } from "@/lib/server/tools-page/package-info";
import { isDefaultRunsRoot, runsRootOf } from "@/lib/settings";
import { cliSettings, CliExit } from "../context";
import { out } from "../stdout";

const DASH = "–";

interface Root {
  root: string;
  /** The settings' default ./runs, not a --root or a configured folder: missing, it is an empty state. */
  isDefault: boolean;
}

function runsRoot(program: Command, rootOption: string | undefined): Root {
  const { settings } = cliSettings(program.opts<{ config?: string }>().config);
  return rootOption ? { root: path.resolve(rootOption), isDefault: false } : { root: runsRootOf(settings), isDefault: isDefaultRunsRoot(settings) };
}

function num(v: number | null): string {
  return v === null ? DASH : String(v);
}

/** Columns padded to their widest cell; numbers right-aligned, the last column left ragged. */
export function alignTable(header: string[], rows: string[][], right: ReadonlySet<number>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : right.has(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}

/** `2026-04-28 14:12` from an ISO instant; anything else as recorded. */
function shortWhen(iso: string | null): string {
  if (!iso) return DASH;
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return m ? `${m[1]} ${m[2]}` : iso;
}

export function runsTable(summaries: readonly RunSummary[]): string {
  const rows = summaries.map((s) => [
    shortWhen(s.when),
    s.verdict ?? "unknown",
    s.ticket ?? DASH,
    s.workload ?? s.case ?? DASH,
    s.layout,
    num(s.cellCount),
    num(s.failedCellCount),
    s.partialEnv ? "partial" : s.partialEnv === false ? "full" : DASH,
    s.errors.length ? `${s.rel}  (${s.errors.length} error${s.errors.length > 1 ? "s" : ""})` : s.rel,
  ]);
  return alignTable(["WHEN (UTC)", "VERDICT", "TICKET", "WORKLOAD/CASE", "LAYOUT", "CELLS", "FAILED", "ENV", "PATH"], rows, new Set([5, 6]));
}

const NOT_RECORDED = "not recorded";

function recorded(v: number | null, digits: number): string {
  return v === null ? NOT_RECORDED : String(Number(v.toFixed(digits)));
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n");
}

/** The whole matrix, one line per cell; a value the run did not record says so (never 0). */
export function matrixTable(cells: readonly MatrixCell[]): string {
  const rows = cells.map((c) => [
    c.name ?? `cells[${c.index}]`,
    c.environment ?? NOT_RECORDED,
    recorded(c.failure_rate, 3),
    c.trials === null ? NOT_RECORDED : `${num(c.failed_count)}/${c.trials}`,
    recorded(c.error_count, 0),
    recorded(c.step_time_ratio, 3),
    c.unreliable === null ? NOT_RECORDED : c.unreliable ? "UNRELIABLE" : "no",
    c.error ? `error: ${c.error}` : "",
  ]);
  return alignTable(["CELL", "ENV", "FAILURE RATE", "FAILED", "ERRORS", "STEP RATIO", "UNRELIABLE", "NOTE"], rows, new Set([2, 3, 4, 5]));
}

export function runSummaryText(s: RunSummary, run: RunData): string {
  const out: string[] = [];
  const field = (label: string, value: string | null) => out.push(`${`${label}:`.padEnd(14)}${value ?? "not recorded"}`);
  field("run", s.rel);
  field("verdict", s.verdict === null ? null : `${s.verdict}${s.verdictSource ? ` (from ${s.verdictSource})` : ""}`);
  field("kind", `${s.layout} · ${s.kind}`);
  field("when", s.when === null ? null : `${s.when}${s.whenSource ? ` (from ${s.whenSource})` : ""}`);
  field("ticket", s.ticket);
  field(s.case ? "case" : "workload", s.case ?? s.workload);
  if (s.cellCount !== null) field("cells", `${s.cellCount} (${s.failedCellCount ?? 0} failed)`);
  if (s.findings !== null) field("findings", String(s.findings));
  if (run.matrix?.ok && run.matrix.data.cells.length) out.push("", "matrix:", indent(matrixTable(run.matrix.data.cells)));
  const envs: [string, RunData["hostEnv"]][] = [
    ["host_env.json", run.hostEnv],
    ["env.json", run.env],
    ...run.environments.map((e): [string, RunData["hostEnv"]] => [`environments/${e.name}/env.json`, e.env]),
  ];
  for (const [label, r] of envs) {
    if (!r?.ok) continue;
    out.push("", `${label}:`);
    const facts = envFacts(r.data);
    const w = Math.max(...facts.map((f) => f.label.length));
    for (const f of facts) out.push(`  ${f.label.padEnd(w)}  ${f.value ?? "not recorded"}`);
  }
  if (s.errors.length) out.push("", "errors:", ...s.errors.map((e) => `  ${e}`));
  if (s.warnings.length) out.push("", `warnings (${s.warnings.length}):`, ...s.warnings.slice(0, 20).map((w) => `  ${w}`));
  if (s.warnings.length > 20) out.push(`  … ${s.warnings.length - 20} more (see --json)`);
  return out.join("\n");
}

export function registerRuns(program: Command): void {
  const runs = program
    .command("runs")
    .description("list the run artifacts under runsRoot (AORTA triage, probe and sanitizer-dashboard runs)")
    .option("--json", "print the run summaries as a JSON array")
    .option("--root <path>", "runs root to read instead of the settings' runsRoot")
    .action((options: { json?: boolean; root?: string }) => {
      const { root, isDefault } = runsRoot(program, options.root);
      if (isDefault && rootIsMissing(root)) {
        if (options.json) out("[]\n");
        console.error(noRunsYetText(root, path.join(toolroomPackage().dir, EXAMPLE_RUNS_DIR)));
        return;
      }
      const d = discoverRuns(root);
      if (d.error) throw new CliExit(1, `toolroom: ${d.error} (set runsRoot in settings, TOOLROOM_RUNSROOT, or pass --root)`);
      if (d.truncated) console.error(`toolroom: warning: ${d.truncated}`);
      const maxBytes = cliSettings(program.opts<{ config?: string }>().config).settings.runs.maxArtifactBytes;
      const summaries = d.runs.map((e) => summarizeRun(readRunEntry(e, { maxBytes })));
      if (options.json) {
        out(`${JSON.stringify(summaries, null, 2)}\n`);
        return;
      }
      if (summaries.length === 0) {
        console.error(
          `toolroom: no runs under ${root} (a run is a folder, at most 4 levels down, holding matrix.json, env.json, host_env.json, meta.json or sanitizer_report.json)`,
        );
        return;
      }
      out(`${runsTable(summaries)}\n`);
    });

  runs
    .command("show <path>")
    .description("print one run's summary: verdict, the matrix (one line per cell), environment facts, errors; <path> relative to the runs root, or absolute")
    .option("--json", "print the summary as JSON")
    .option("--root <path>", "runs root to read instead of the settings' runsRoot")
    .action((given: string, own: { json?: boolean; root?: string }) => {
      // `runs` has the same options, and commander gives an option typed after the subcommand's
      // arguments to the first command that knows it: `runs show X --json` sets the parent's --json.
      // Both places count (positional options would break `--config` after the subcommand).
      const options = { ...runs.opts<{ json?: boolean; root?: string }>(), ...own };
      const rootOption = options.root;
      // An absolute path names the run itself: the person typed it, as they would a --root.
      const absolute = rootOption === undefined && path.isAbsolute(given);
      const root = absolute ? path.dirname(given) : runsRoot(program, rootOption).root;
      const runPath = absolute ? path.basename(given) : given;
      // Bounded like every other reader: the path is taken relative to the root and may not leave it.
      const resolved = resolveWithin(root, runPath, { label: "runs root" });
      if (!resolved.ok) throw new CliExit(1, `toolroom: ${resolved.error.replace(/^Error: /, "")}`);
      if (!resolved.stat?.isDirectory()) throw new CliExit(1, `toolroom: no run folder at ${runPath} under ${root}`);
      const run = readRun(resolved.root, resolved.abs, { maxBytes: cliSettings(program.opts<{ config?: string }>().config).settings.runs.maxArtifactBytes });
      if (!run || run.entry.artifacts.length === 0) throw new CliExit(1, `toolroom: ${runPath} holds no run artifacts`);
      const summary = summarizeRun(run);
      if (options.json) out(`${JSON.stringify(summary, null, 2)}\n`);
      else out(`${runSummaryText(summary, run)}\n`);
      // A run whose files could not all be read is reported, and the exit status says so.
      if (summary.errors.length) process.exitCode = 1;
    });
}
