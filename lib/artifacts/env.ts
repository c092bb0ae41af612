import { z } from "zod";
import { type Fields, isRecord, newNotes, preview, readFields } from "./fields";
import { type FileResult, type ReadOptions, readTypedFile } from "./json";

/**
 * Two unrelated JSON families are both called env.json: the probe snapshot (`schema_version`
 * "1.x", also host_env.json) and the sanitizer dashboard's run-area manifest. The parser is
 * picked from the markers inside, never from the file name.
 */
export const RUN_AREA_SCHEMA = "aorta.sanitizer_run_area/0.1";
export const PROBE_ENV_MAJOR = 1;

const str = z.string();

const probeSpec = {
  schema_version: str,
  captured_at: str,
  partial: z.boolean(),
  partial_reasons: z.array(str),
  // Raw `rdhc --quick --json` output (or null): its shape is rdhc's, not AORTA's.
  system_health: z.unknown(),
  rocm: z.looseObject({}).nullable(),
};

const rocmSpec = {
  version: str.nullable(),
  version_dev: str.nullable(),
  kmd_version: str.nullable(),
  root: str.nullable(),
  lib_root: str.nullable(),
  root_source: str.nullable(),
  layout: str.nullable(),
  version_source: str.nullable(),
};
/** Only rocm.version is checked upstream; the attribution fields arrived in 1.16. */
const ROCM_OPTIONAL = new Set(["version_dev", "kmd_version", "root", "lib_root", "root_source", "layout", "version_source"]);

export interface ProbeEnv extends Fields<typeof probeSpec> {
  kind: "probe";
  /** The object as parsed (shared with the read cache: do not mutate). */
  raw: Record<string, unknown>;
  rocmFields: Fields<typeof rocmSpec> | null;
  /** Every other top-level block (hip, gpu_arch, env_vars, …), kept as recorded. */
  blocks: Record<string, unknown>;
  missingFields: string[];
  warnings: string[];
}

const observedSpec = {
  execution: str,
  findings: z.number().int(),
  kernel_reasons: z.array(z.looseObject({})),
  reason: str.nullable(),
  verdict: str,
};

const runAreaSpec = {
  schema: str,
  case: str,
  class: str,
  command: str,
  recipe: str,
  commit: str,
  date: str,
  run: str,
  run_url: str,
  target: str,
  container_image: str,
  rocjitsu_commit: str,
  rocjitsu_run_url: str,
  digests: z.record(z.string(), z.unknown()),
  observed: z.looseObject({}),
  inputs: z.array(str),
  artifacts_not_published: z.array(z.looseObject({})),
  rebuild: z.array(z.looseObject({})),
  required_env: z.array(z.looseObject({})),
  logs_published: z.boolean(),
};

export interface RunAreaManifest extends Fields<typeof runAreaSpec> {
  kind: "run-area";
  /** The object as parsed (shared with the read cache: do not mutate). */
  raw: Record<string, unknown>;
  observedFields: Fields<typeof observedSpec> | null;
  extra: Record<string, unknown>;
  missingFields: string[];
  warnings: string[];
}

export type EnvDoc = ProbeEnv | RunAreaManifest;

export function isRunAreaManifest(raw: unknown): boolean {
  return isRecord(raw) && typeof raw.schema === "string" && raw.schema.startsWith("aorta.sanitizer_run_area/");
}

export function readEnv(raw: unknown, file = "env.json"): EnvDoc {
  if (!isRecord(raw)) throw new Error(`${file}: expected a JSON object, found ${Array.isArray(raw) ? "an array" : typeof raw}`);
  return isRunAreaManifest(raw) ? readRunArea(raw, file) : readProbeEnv(raw, file);
}

function readProbeEnv(raw: Record<string, unknown>, file: string): ProbeEnv {
  const notes = newNotes();
  const { fields, extra } = readFields(raw, probeSpec, "", notes);
  const version = fields.schema_version;
  if (version !== null) {
    const major = Number(version.split(".")[0]);
    if (major !== PROBE_ENV_MAJOR)
      notes.warnings.push(`${file}: schema_version ${JSON.stringify(version)} is not known (expected ${PROBE_ENV_MAJOR}.x); read best-effort`);
  } else if (typeof raw.schema === "string") {
    notes.warnings.push(`${file}: schema ${JSON.stringify(raw.schema)} is not known; read as an environment snapshot, best-effort`);
  }
  let rocmFields: ProbeEnv["rocmFields"] = null;
  if (fields.rocm) rocmFields = readFields(fields.rocm, rocmSpec, "rocm", notes, ROCM_OPTIONAL).fields;
  return { kind: "probe", raw, ...fields, rocmFields, blocks: extra, missingFields: notes.missingFields, warnings: notes.warnings };
}

/** Newer runs only, and omitted rather than null when unknown. */
const RUN_AREA_OPTIONAL = new Set(["container_image", "rocjitsu_commit", "rocjitsu_run_url"]);

function readRunArea(raw: Record<string, unknown>, file: string): RunAreaManifest {
  const notes = newNotes();
  const { fields, extra } = readFields(raw, runAreaSpec, "", notes, RUN_AREA_OPTIONAL);
  if (fields.schema !== RUN_AREA_SCHEMA)
    notes.warnings.push(`${file}: schema ${JSON.stringify(fields.schema)} is not known (expected ${RUN_AREA_SCHEMA}); read best-effort`);
  const observedFields = fields.observed ? readFields(fields.observed, observedSpec, "observed", notes).fields : null;
  return { kind: "run-area", raw, ...fields, observedFields, extra, missingFields: notes.missingFields, warnings: notes.warnings };
}

export function readEnvFile(file: string, label = "env.json", options?: ReadOptions): FileResult<EnvDoc> {
  return readTypedFile(file, label, readEnv, options);
}

/** A labelled fact for tables and tool output; `null` means the run did not record it. */
export interface Fact {
  label: string;
  value: string | null;
}

function at(obj: Record<string, unknown>, ...keys: string[]): unknown {
  let cur: unknown = obj;
  for (const k of keys) {
    if (!isRecord(cur)) return undefined;
    cur = cur[k];
  }
  return cur;
}

function show(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v === "string") return v;
  if (Array.isArray(v) && v.every((x) => typeof x === "string" || typeof x === "number")) return v.join(", ");
  return preview(v, 200);
}

/** A value recorded as null reads "null"; only a field the run did not record is `null` (shown "not recorded"). */
function recorded(v: string | null | undefined, missing: readonly string[], at: string, absent = false): string | null {
  if (v !== null && v !== undefined) return v;
  return absent || missing.includes(at) ? null : "null";
}

/** The facts shown first for a probe snapshot, in display order. */
export function probeEnvFacts(env: ProbeEnv): Fact[] {
  const reasons = env.partial_reasons;
  const health = env.system_health;
  const facts: Fact[] = [
    { label: "captured_at", value: env.captured_at },
    { label: "partial", value: env.partial === null ? null : String(env.partial) },
    { label: "partial_reasons", value: reasons === null ? null : reasons.length ? reasons.join("; ") : "(none)" },
    { label: "rocm.version", value: recorded(env.rocmFields?.version, env.missingFields, "rocm.version", !env.rocmFields) },
    { label: "rocm.root_source", value: env.rocmFields?.root_source ?? null },
    {
      label: "system_health",
      value: env.missingFields.includes("system_health") ? null : health === null || health === undefined ? "not captured (null)" : preview(health, 300),
    },
  ];
  const b = env.blocks;
  const more: [string, unknown][] = [
    ["schema_version", env.schema_version],
    ["gpu_arch.gfx_targets", at(b, "gpu_arch", "gfx_targets")],
    ["hip.version", at(b, "hip", "version")],
    ["pytorch_version", b.pytorch_version],
    ["python_version", b.python_version],
    ["host.kernel_release", at(b, "host", "kernel_release")],
    ["runtime_context", b.runtime_context],
  ];
  for (const [label, v] of more) if (v !== undefined) facts.push({ label, value: show(v) });
  return facts;
}

/** The facts shown first for a sanitizer run-area manifest. */
export function runAreaFacts(env: RunAreaManifest): Fact[] {
  const o = env.observedFields;
  const facts: Fact[] = [
    { label: "case", value: env.case },
    { label: "class", value: env.class },
    { label: "observed.verdict", value: o?.verdict ?? null },
    { label: "observed.execution", value: o?.execution ?? null },
    { label: "observed.findings", value: o?.findings == null ? null : String(o.findings) },
    { label: "observed.reason", value: recorded(o?.reason, env.missingFields, "observed.reason") },
    { label: "target", value: env.target },
    { label: "date", value: env.date },
    { label: "commit", value: env.commit },
    { label: "run_url", value: env.run_url },
    { label: "command", value: env.command },
    { label: "recipe", value: env.recipe },
  ];
  for (const k of ["container_image", "rocjitsu_commit", "rocjitsu_run_url"] as const) if (env[k] !== null) facts.push({ label: k, value: env[k] });
  return facts;
}

export function envFacts(env: EnvDoc): Fact[] {
  return env.kind === "probe" ? probeEnvFacts(env) : runAreaFacts(env);
}
