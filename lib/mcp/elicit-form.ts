import type { ElicitResult, ElicitSchema } from "@/lib/tools/types";

/** One value a person can give a field. */
export type ElicitValue = string | number | boolean | string[];

/** A field of an elicitation form as the dialog and the terminal prompt show it. */
export interface ElicitFormField {
  name: string;
  label: string;
  description?: string;
  required: boolean;
  /** `choice`: one of `options` (SEP-1330 single select); `choices`: several of them. */
  kind: "text" | "number" | "integer" | "boolean" | "choice" | "choices";
  options: { value: string; label: string }[];
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  default?: ElicitValue;
}

type Json = Record<string, unknown>;

function optionsOf(property: Json): { value: string; label: string }[] {
  // SEP-1330's titled forms (`oneOf`/`anyOf` of {const, title}), the untitled `enum`, and the legacy `enumNames`.
  const titled = (list: unknown) =>
    Array.isArray(list)
      ? list
          .filter((o): o is Json => typeof o === "object" && o !== null && typeof (o as Json).const === "string")
          .map((o) => ({ value: o.const as string, label: typeof o.title === "string" ? o.title : (o.const as string) }))
      : [];
  if (Array.isArray(property.oneOf)) return titled(property.oneOf);
  const items = (property.items ?? {}) as Json;
  if (Array.isArray(items.anyOf)) return titled(items.anyOf);
  const values = Array.isArray(property.enum) ? property.enum : Array.isArray(items.enum) ? items.enum : [];
  const names = Array.isArray(property.enumNames) ? property.enumNames : [];
  return values.filter((v): v is string => typeof v === "string").map((value, i) => ({ value, label: typeof names[i] === "string" ? names[i] : value }));
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** The schema's properties as form fields, in the server's order. */
export function elicitFields(schema: ElicitSchema): ElicitFormField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, raw]) => {
    const property = raw as Json;
    const options = optionsOf(property);
    const kind: ElicitFormField["kind"] =
      property.type === "array"
        ? "choices"
        : options.length
          ? "choice"
          : property.type === "boolean"
            ? "boolean"
            : property.type === "integer"
              ? "integer"
              : property.type === "number"
                ? "number"
                : "text";
    const field: ElicitFormField = {
      name,
      label: typeof property.title === "string" && property.title ? property.title : name,
      required: required.has(name),
      kind,
      options,
    };
    if (typeof property.description === "string") field.description = property.description;
    if (typeof property.format === "string") field.format = property.format;
    for (const key of ["minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems"] as const) {
      const value = num(property[key]);
      if (value !== undefined) field[key] = value;
    }
    if (defaultFits(kind, property.default)) field.default = property.default;
    return field;
  });
}

function defaultFits(kind: ElicitFormField["kind"], value: unknown): value is ElicitValue {
  if (kind === "boolean") return typeof value === "boolean";
  if (kind === "number" || kind === "integer") return typeof value === "number";
  if (kind === "choices") return Array.isArray(value) && value.every((v) => typeof v === "string");
  return typeof value === "string";
}

/** What the form starts with (SEP-1034): each field's default, where the schema gives one. */
export function defaultAnswers(fields: ElicitFormField[]): Record<string, ElicitValue> {
  const out: Record<string, ElicitValue> = {};
  for (const field of fields) if (field.default !== undefined) out[field.name] = field.default;
  return out;
}

/**
 * Checks an answer against the fields: what the server receives, or a message per bad field. A
 * field left empty is left out (so the server sees it was not given), which a required one may not be.
 */
export function checkAnswers(
  fields: ElicitFormField[],
  answers: Record<string, unknown>,
): { ok: true; content: Record<string, ElicitValue> } | { ok: false; errors: Record<string, string> } {
  const content: Record<string, ElicitValue> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const value = answers[field.name];
    const empty = value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0 && field.required);
    if (empty) {
      if (field.required) errors[field.name] = "required";
      continue;
    }
    const problem = fieldProblem(field, value);
    if (problem) errors[field.name] = problem;
    else content[field.name] = value as ElicitValue;
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, content };
}

function fieldProblem(field: ElicitFormField, value: unknown): string | undefined {
  switch (field.kind) {
    case "boolean":
      return typeof value === "boolean" ? undefined : "must be true or false";
    case "number":
    case "integer": {
      if (typeof value !== "number" || !Number.isFinite(value)) return "must be a number";
      if (field.kind === "integer" && !Number.isInteger(value)) return "must be a whole number";
      if (field.minimum !== undefined && value < field.minimum) return `must be at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `must be at most ${field.maximum}`;
      return undefined;
    }
    case "choice":
      return typeof value === "string" && field.options.some((o) => o.value === value) ? undefined : "must be one of the options";
    case "choices": {
      if (!Array.isArray(value) || !value.every((v) => typeof v === "string" && field.options.some((o) => o.value === v))) return "must be some of the options";
      if (field.minItems !== undefined && value.length < field.minItems) return `choose at least ${field.minItems}`;
      if (field.maxItems !== undefined && value.length > field.maxItems) return `choose at most ${field.maxItems}`;
      return undefined;
    }
    default: {
      if (typeof value !== "string") return "must be text";
      if (field.minLength !== undefined && value.length < field.minLength) return `at least ${field.minLength} characters`;
      if (field.maxLength !== undefined && value.length > field.maxLength) return `at most ${field.maxLength} characters`;
      if (field.format === "email" && !/^[^@\s]+@[^@\s]+$/.test(value)) return "must be an email address";
      if ((field.format === "uri" || field.format === "url") && !URL.canParse(value)) return "must be a URL";
      if (field.format === "date" && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return "must be a date (YYYY-MM-DD)";
      if (field.format === "date-time" && Number.isNaN(Date.parse(value))) return "must be a date and time";
      return undefined;
    }
  }
}

/**
 * The answer with nobody to ask but a standing yes (`--yes`): accept the schema's defaults, or
 * decline when a required field has none (consent to defaults is not consent to made-up values).
 */
export function answerWithDefaults(schema: ElicitSchema): ElicitResult {
  const fields = elicitFields(schema);
  const checked = checkAnswers(fields, defaultAnswers(fields));
  return checked.ok ? { action: "accept", content: checked.content } : { action: "decline" };
}

/** Turns what a person typed for one field into its value; undefined for an empty answer. */
export function parseTyped(field: ElicitFormField, typed: string): unknown {
  const text = typed.trim();
  if (!text) return undefined;
  switch (field.kind) {
    case "boolean":
      return /^(y|yes|true|1)$/i.test(text) ? true : /^(n|no|false|0)$/i.test(text) ? false : text;
    case "number":
    case "integer":
      return Number.isNaN(Number(text)) ? text : Number(text);
    case "choice":
      return optionByTyped(field, text) ?? text;
    case "choices":
      return text.split(",").map((part) => optionByTyped(field, part.trim()) ?? part.trim());
    default:
      return typed;
  }
}

/** An option by its number in the list shown (1-based), its value or its label. */
function optionByTyped(field: ElicitFormField, text: string): string | undefined {
  const index = /^\d+$/.test(text) ? Number(text) - 1 : -1;
  return field.options[index]?.value ?? field.options.find((o) => o.value === text || o.label.toLowerCase() === text.toLowerCase())?.value;
}
