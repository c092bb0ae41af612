import type { z } from "zod";

/** One zod schema per known key; each key is checked on its own so one bad field spoils nothing else. */
export type FieldSpec = Record<string, z.ZodType>;

/** Known keys typed; `null` when the run did not record the key (or recorded a wrong type). */
export type Fields<S extends FieldSpec> = { [K in keyof S]: z.output<S[K]> | null };

/** Collects what a reader noticed, with paths like `cells[2].mean_step_time_ms`. */
export interface ReadNotes {
  missingFields: string[];
  warnings: string[];
}

export function newNotes(): ReadNotes {
  return { missingFields: [], warnings: [] };
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const IDENT = /^[A-Za-z_$][\w$]*$/;

/** `cells[2]` + `name` → `cells[2].name`; keys that are not identifiers are quoted. */
export function joinPath(at: string, key: string | number): string {
  if (typeof key === "number") return `${at}[${key}]`;
  const part = IDENT.test(key) || key.includes("-") ? key : JSON.stringify(key);
  return at ? `${at}.${part}` : part;
}

/**
 * Reads the known keys of `raw` with their schemas. A key that is absent, or present with the
 * wrong type, becomes `null` and is listed in `missingFields` (the upstream reader does the same);
 * a wrong type also gets a warning. Keys the spec does not know are returned in `extra`.
 * Keys in `optional` are read the same way, but their absence is by design and is not listed.
 */
export function readFields<S extends FieldSpec>(
  raw: Record<string, unknown>,
  spec: S,
  at: string,
  notes: ReadNotes,
  optional?: ReadonlySet<string>,
): { fields: Fields<S>; extra: Record<string, unknown> } {
  const fields = {} as Record<string, unknown>;
  for (const [key, schema] of Object.entries(spec)) {
    const where = joinPath(at, key);
    if (!Object.hasOwn(raw, key)) {
      fields[key] = null;
      if (!optional?.has(key)) notes.missingFields.push(where);
      continue;
    }
    const parsed = schema.safeParse(raw[key]);
    if (parsed.success) {
      fields[key] = parsed.data;
    } else {
      fields[key] = null;
      notes.missingFields.push(where);
      notes.warnings.push(`${where}: unexpected value ${preview(raw[key])} (${parsed.error.issues[0]?.message ?? "wrong type"})`);
    }
  }
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) if (!Object.hasOwn(spec, key)) extra[key] = value;
  return { fields: fields as Fields<S>, extra };
}

/** A short one-line rendering of any JSON value, for warnings and compact tool output. */
export function preview(value: unknown, max = 80): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
