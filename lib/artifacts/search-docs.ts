import { envFacts } from "./env";
import { isRecord } from "./fields";
import { cellLabel, summarizeRun } from "./summary";
import type { RunData } from "./run";
import { groupFindings } from "./sanitizer";

/** One searchable piece of a run: the run header, a cell, an environment, a check, a finding group. */
export interface RunSearchDoc {
  /** Run folder, relative to the runs root. */
  rel: string;
  /** What part of the run: "run", "cell tf32_off", "env host_env.json", "findings waitcheck/wait_hazard", … */
  part: string;
  text: string;
  /** Names that say what the doc is about (path, cell, case), ranked above the body. */
  boost: string;
}

/** A recorded field as text: strings and numbers as they are, anything else as JSON. */
function scalarText(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value) ?? "";
}
const line = (...parts: (string | number | null | undefined | false)[]) =>
  parts.filter((p) => p !== null && p !== undefined && p !== false && p !== "").join(" ");

/** The text fields of a run, split into small documents for ranking. Large arrays (step times) are left out. */
export function runSearchDocs(run: RunData): RunSearchDoc[] {
  const { entry } = run;
  const s = summarizeRun(run);
  const pathWords = entry.rel.replace(/[/_\-.]+/g, " ");
  const docs: RunSearchDoc[] = [];
  docs.push({
    rel: entry.rel,
    part: "run",
    text: line(
      `run ${entry.rel}`,
      s.layout,
      s.kind,
      s.ticket && `ticket ${s.ticket}`,
      s.workload && `workload ${s.workload}`,
      s.case && `case ${s.case}`,
      s.caseClass,
      s.verdict && `verdict ${s.verdict}`,
      s.when,
      s.failedCells.length > 0 && `failed cells ${s.failedCells.map((c) => c.name).join(", ")}`,
      s.partialEnv && "partial environment",
      ...s.warnings,
      ...s.errors,
    ),
    boost: line(pathWords, s.ticket, s.workload, s.case),
  });

  const matrix = run.matrix?.ok ? run.matrix.data : null;
  if (matrix) {
    for (const c of matrix.cells) {
      const name = cellLabel(c);
      const hints = (c.failure_hints ?? []).map((h) => h.text);
      docs.push({
        rel: entry.rel,
        part: `cell ${name}`,
        text: line(
          `cell ${name}`,
          c.environment && `environment ${c.environment}`,
          c.mitigations?.length ? `mitigations ${c.mitigations.join(", ")}` : null,
          c.failed_count !== null && `failed ${c.failed_count} of ${c.trials ?? "?"} trials`,
          c.error && `error ${c.error}`,
          c.confound && `confound ${c.confound}`,
          c.step_time_source,
          Object.keys(c.exit_status_counts ?? {}).join(" "),
          c.top_failure_detector_id,
          c.top_warn_detector_id,
          c.stop_after_note,
          ...hints,
        ),
        boost: line(name, c.mitigations?.join(" "), pathWords),
      });
    }
  }

  const envFiles: [string, RunData["env"]][] = [
    ["host_env.json", run.hostEnv],
    ["env.json", run.env],
    ...run.environments.map((e): [string, RunData["env"]] => [`environments/${e.name}/env.json`, e.env]),
  ];
  for (const [file, r] of envFiles) {
    if (!r?.ok) continue;
    const env = r.data;
    const facts = envFacts(env).map((f) => (f.value === null ? "" : `${f.label} ${f.value}`));
    const extras: string[] = [];
    if (env.kind === "run-area") {
      for (const k of env.observedFields?.kernel_reasons ?? []) if (isRecord(k)) extras.push(line(scalarText(k.kernel), scalarText(k.reason)));
    }
    docs.push({
      rel: entry.rel,
      part: `env ${file}`,
      text: line(`environment ${file}`, ...facts, ...extras),
      boost: line(file.replace(/[/_.]+/g, " "), pathWords),
    });
  }

  const report = run.sanitizerReport?.ok ? run.sanitizerReport.data : null;
  if (report) {
    for (const c of report.checks) {
      docs.push({
        rel: entry.rel,
        part: `check ${c.sanitizer ?? "?"}`,
        text: line(`sanitizer check ${c.sanitizer}`, c.state && `state ${c.state}`, c.verdict && `verdict ${c.verdict}`, c.reason && `reason ${c.reason}`),
        boost: line(c.sanitizer, pathWords),
      });
    }
    for (const g of groupFindings(report)) {
      docs.push({
        rel: entry.rel,
        part: `findings ${g.sanitizer ?? "?"}/${g.code ?? "?"}`,
        text: line(`${g.count} finding(s)`, g.code, g.severity, g.sanitizer, g.kernels.join(" "), g.example),
        boost: line(g.code, g.kernels.join(" "), pathWords),
      });
    }
  }
  return docs;
}
