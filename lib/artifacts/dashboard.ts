import { z } from "zod";
import { type Fields, isRecord, joinPath, newNotes, readFields, type ReadNotes } from "./fields";
import { type FileResult, type ReadOptions, readTypedFile } from "./json";
import { readMeta, type RunMeta } from "./sanitizer";

const str = z.string();
const obj = z.looseObject({});

/** One guardrail row (or a survey case's `summary`); older snapshots have fewer keys. */
const rowSpec = {
  cls: str,
  expected: str.nullable(),
  verdict: str,
  match: z.boolean().nullable(),
  present: z.boolean(),
  execution: str.nullable(),
  findings: z.number().int().nullable(),
  finding_groups: z.array(obj),
  kernels: z.array(obj),
  kernel_reasons: z.array(obj),
  coverage: str.nullable(),
  backend: z.unknown(),
  primary: obj.nullable(),
  observation: str.nullable(),
  report_rel: str.nullable(),
  worklist: obj.nullable(),
};
/** A survey summary is a row without these. */
const SURVEY_SUMMARY_OPTIONAL = new Set(["cls", "report_rel", "expected", "match"]);

export interface DashboardRow extends Fields<typeof rowSpec> {
  extra: Record<string, unknown>;
}

const surveySpec = {
  name: str,
  label: str,
  group: str.nullable(),
  sanitizer: str.nullable(),
  cls: str,
  backend: z.unknown(),
  command: str.nullable(),
  report_rel: str.nullable(),
  staged: z.boolean().nullable(),
  workload: z.unknown(),
  summary: obj,
};

export interface DashboardSurveyCase extends Omit<Fields<typeof surveySpec>, "summary"> {
  summary: DashboardRow | null;
  extra: Record<string, unknown>;
}

const entrySpec = {
  gate: z.boolean(),
  meta: obj,
  rel: str,
  rows: z.record(z.string(), z.unknown()),
};

export interface DashboardEntry extends Omit<Fields<typeof entrySpec>, "meta" | "rows"> {
  meta: RunMeta | null;
  rows: Record<string, DashboardRow>;
  /** Only the newest entry has a survey list. */
  survey: DashboardSurveyCase[] | null;
  extra: Record<string, unknown>;
}

export interface DashboardIndex {
  entries: DashboardEntry[];
  missingFields: string[];
  warnings: string[];
}

function readRow(raw: unknown, at: string, notes: ReadNotes, optional?: ReadonlySet<string>): DashboardRow | null {
  if (!isRecord(raw)) {
    notes.warnings.push(`${at}: not an object; skipped`);
    return null;
  }
  const { fields, extra } = readFields(raw, rowSpec, at, notes, optional);
  return { ...fields, extra };
}

/** The sanitizer dashboard's `data.json`: a list of runs, newest first. */
export function readDashboardIndex(raw: unknown, file = "data.json"): DashboardIndex {
  if (!Array.isArray(raw)) throw new Error(`${file}: expected a JSON list of runs, found ${isRecord(raw) ? "an object" : typeof raw}`);
  const notes = newNotes();
  const entries: DashboardEntry[] = [];
  raw.forEach((e, i) => {
    const at = joinPath("", i);
    if (!isRecord(e)) return void notes.warnings.push(`${at}: not an object; skipped`);
    const { fields, extra } = readFields(e, entrySpec, at, notes);
    delete extra.survey;
    let meta: RunMeta | null = null;
    if (fields.meta) {
      meta = readMeta(fields.meta);
      notes.missingFields.push(...meta.missingFields.map((p) => joinPath(joinPath(at, "meta"), p)));
    }
    const rows: Record<string, DashboardRow> = {};
    for (const [name, row] of Object.entries(fields.rows ?? {})) {
      const r = readRow(row, joinPath(joinPath(at, "rows"), name), notes);
      if (r) rows[name] = r;
    }
    let survey: DashboardSurveyCase[] | null = null;
    if (Array.isArray(e.survey)) {
      survey = [];
      e.survey.forEach((s, j) => {
        const sAt = joinPath(joinPath(at, "survey"), j);
        if (!isRecord(s)) return void notes.warnings.push(`${sAt}: not an object; skipped`);
        const { fields: sf, extra: sExtra } = readFields(s, surveySpec, sAt, notes);
        const summary = sf.summary ? readRow(sf.summary, joinPath(sAt, "summary"), notes, SURVEY_SUMMARY_OPTIONAL) : null;
        survey?.push({ ...sf, summary, extra: sExtra });
      });
    }
    entries.push({ ...fields, meta, rows, survey, extra });
  });
  return { entries, missingFields: notes.missingFields, warnings: notes.warnings };
}

export function readDashboardIndexFile(file: string, label = "data.json", options?: ReadOptions): FileResult<DashboardIndex> {
  return readTypedFile(file, label, readDashboardIndex, options);
}
