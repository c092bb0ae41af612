import { z } from "zod";
import { type Fields, isRecord, joinPath, newNotes, readFields, type ReadNotes } from "./fields";
import { type FileResult, type ReadOptions, readTypedFile } from "./json";

/** The only matrix schema AORTA has written; anything else is read best-effort with a warning. */
export const MATRIX_SCHEMA_VERSION = 1;

const num = z.number();
const int = z.number().int();
const str = z.string();
const strMap = z.record(z.string(), z.string());
const countMap = z.record(z.string(), z.number());
/** Raw samples can run to millions per matrix; a plain loop checks them ~50× faster than z.array. */
const numberList = z.custom<number[]>((v) => Array.isArray(v) && v.every((x) => typeof x === "number"), "expected a list of numbers");

const headerSpec = {
  schema_version: z.union([z.number(), z.string()]),
  workload: str,
  ticket: str.nullable(),
  trials_per_cell: int,
  steps_per_trial: int,
  run_timestamp: str,
  baseline_cell: str.nullable(),
  confound: z.looseObject({ threshold: num.nullable().optional(), baseline_cell_configured: str.nullable().optional() }),
  stop_after: z.looseObject({}).nullable(),
  warnings: z.array(str),
  recipe_source: z.looseObject({ path: str.nullable().optional(), sha256: str.nullable().optional() }),
};

/** Hints are `[text, count]` from the producer; hand-written fixtures use bare strings. */
const hint = z.union([
  z.tuple([str, num]).transform(([text, count]) => ({ text, count: count })),
  str.transform((text) => ({ text, count: null as number | null })),
]);

const cellSpec = {
  name: str,
  mitigations: z.array(str),
  environment: str.nullable(),
  extra_env: strMap,
  resolved_env_vars: strMap,
  trials: int,
  passed_count: int,
  failed_count: int,
  error_count: int,
  failure_rate: num,
  error_rate: num,
  unreliable: z.boolean(),
  mean_step_time_ms: num,
  std_step_time_ms: num,
  min_step_time_ms: num,
  max_step_time_ms: num,
  p50_step_time_ms: num,
  p90_step_time_ms: num,
  p99_step_time_ms: num,
  mean_wall_clock_sec: num,
  step_times_ms: numberList,
  step_time_source: str,
  step_time_ratio: num.nullable(),
  exit_status_counts: countMap,
  outcome_counts: countMap,
  failure_hints: z.array(hint),
  trial_paths: z.array(str),
  error: str.nullable(),
  executed_iter_min: int.nullable(),
  executed_iter_max: int.nullable(),
  configured_iters: int.nullable(),
  iters_display: str,
  workload_config: z.looseObject({}),
  top_failure_detector_id: str.nullable(),
  top_warn_detector_id: str.nullable(),
  stop_after_note: str.nullable(),
  resumed: z.boolean(),
  confound: str,
  resolved_environment: z.looseObject({}),
};

/**
 * Fields that are optional by design (probe-only, stop_after-only, or added in later producers):
 * their absence is still a "not recorded" value, but it is not worth a missingFields entry.
 */
const OPTIONAL_CELL_FIELDS = new Set([
  "extra_env",
  "top_failure_detector_id",
  "top_warn_detector_id",
  "stop_after_note",
  "executed_iter_min",
  "executed_iter_max",
  "configured_iters",
  "iters_display",
  "workload_config",
  "resumed",
]);

export type MatrixHeader = Fields<typeof headerSpec>;
export type MatrixCellFields = Fields<typeof cellSpec>;

export interface MatrixCell extends MatrixCellFields {
  index: number;
  /** Keys this reader does not know, kept as recorded. */
  extra: Record<string, unknown>;
}

export interface Matrix {
  /** The object as parsed (shared with the read cache: do not mutate). */
  raw: Record<string, unknown>;
  header: MatrixHeader;
  cells: MatrixCell[];
  /** Top-level keys this reader does not know, kept as recorded. */
  extra: Record<string, unknown>;
  missingFields: string[];
  warnings: string[];
}

/** Reads a parsed matrix.json. Throws only when the value is not an object at all. */
export function readMatrix(raw: unknown, file = "matrix.json"): Matrix {
  if (!isRecord(raw)) throw new Error(`${file}: expected a JSON object, found ${Array.isArray(raw) ? "an array" : typeof raw}`);
  const notes = newNotes();
  const { fields: header, extra } = readFields(raw, headerSpec, "", notes);
  delete extra.cells;
  const version = header.schema_version;
  if (version !== null && version !== MATRIX_SCHEMA_VERSION) {
    notes.warnings.push(`${file}: schema_version ${JSON.stringify(version)} is not known (expected ${MATRIX_SCHEMA_VERSION}); read best-effort`);
  }
  const cells: MatrixCell[] = [];
  if (!Array.isArray(raw.cells)) {
    notes.missingFields.push("cells");
    if (raw.cells !== undefined) notes.warnings.push(`${file}: "cells" is not a list`);
  } else {
    const perKey = new CellNotes();
    raw.cells.forEach((c, index) => {
      const at = joinPath("cells", index);
      if (!isRecord(c)) {
        notes.warnings.push(`${at}: not an object; skipped`);
        return;
      }
      const cellNotes = newNotes();
      const { fields, extra: cellExtra } = readFields(c, cellSpec, at, cellNotes, OPTIONAL_CELL_FIELDS);
      perKey.add(index, cellNotes);
      cells.push({ ...fields, index, extra: cellExtra });
    });
    perKey.summarise(cells.length, notes);
  }
  return { raw, header, cells, extra, missingFields: notes.missingFields, warnings: notes.warnings };
}

/** Cells named as examples in a summary. */
const EXAMPLE_CELLS = 3;
const count = (n: number) => n.toLocaleString("en-US");

/**
 * What the cells' readers noticed, per key rather than per cell: a 60,000-cell run from an older
 * producer lacks the same 15 fields in every cell, and listing each (`cells[123].min_step_time_ms`)
 * sent 27.6 MB of HTML with its page (#29.6). One line per key, with a count and a few examples.
 */
class CellNotes {
  private missing = new Map<string, number[]>();
  private warned = new Map<string, { first: string; cells: number }>();

  add(index: number, notes: ReadNotes): void {
    for (const where of notes.missingFields) {
      const key = where.slice(where.indexOf(".") + 1);
      const seen = this.missing.get(key);
      if (!seen) this.missing.set(key, [index]);
      else seen.push(index);
    }
    for (const warning of notes.warnings) {
      const key = warning.slice(warning.indexOf(".") + 1, warning.indexOf(":"));
      const seen = this.warned.get(key);
      if (!seen) this.warned.set(key, { first: warning, cells: 1 });
      else seen.cells++;
    }
  }

  /** `min_step_time_ms: missing in 60,000 of 60,000 cells (cells[0], cells[1], cells[2], …)`. */
  summarise(total: number, into: ReadNotes): void {
    for (const [key, indexes] of this.missing) {
      const examples = indexes.slice(0, EXAMPLE_CELLS).map((i) => joinPath("cells", i));
      into.missingFields.push(
        `${key}: missing in ${count(indexes.length)} of ${count(total)} cells (${examples.join(", ")}${indexes.length > EXAMPLE_CELLS ? ", …" : ""})`,
      );
    }
    for (const { first, cells } of this.warned.values()) into.warnings.push(cells > 1 ? `${first} (and in ${count(cells - 1)} more cells)` : first);
  }
}

export function readMatrixFile(file: string, label = "matrix.json", options?: ReadOptions): FileResult<Matrix> {
  return readTypedFile(file, label, readMatrix, options);
}

/** A cell that did not run at all (`error` set) or had failing trials. */
export function isFailedCell(cell: MatrixCell): boolean {
  return (cell.failed_count ?? 0) > 0 || (cell.error !== null && cell.error !== "");
}

export type MatrixVerdict = "pass" | "fail" | "error" | "unknown";

/**
 * "fail" if any trial failed; else "error" if any cell errored or had error trials; else "pass"
 * when every cell recorded its failed count; "unknown" when that cannot be told.
 */
export function matrixVerdict(m: Matrix): MatrixVerdict {
  if (m.cells.length === 0) return "unknown";
  if (m.cells.some((c) => (c.failed_count ?? 0) > 0)) return "fail";
  if (m.cells.some((c) => (c.error !== null && c.error !== "") || (c.error_count ?? 0) > 0)) return "error";
  if (m.cells.every((c) => c.failed_count !== null)) return "pass";
  return "unknown";
}
