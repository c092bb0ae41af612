/**
 * A tool's input JSON Schema as table rows: one row per property (nested objects, array items and
 * union variants indented under their parent). Pure, so the page and the tests share it.
 * Handles what zod and hand-written schemas produce: `$ref` into `$defs`/`definitions`,
 * `anyOf`/`oneOf` (with `X | null` shown as nullable X), `allOf` of objects, enums, consts, defaults
 * and the usual constraints. Recursive `$ref`s are shown once and not expanded again.
 */

export type Schema = Record<string, unknown>;

export interface SchemaRow {
  /** Dotted path from the root, e.g. `filters.tags[]`; unique within a table. */
  path: string;
  /** Indentation level: 0 for top-level properties. */
  depth: number;
  name: string;
  /** Human-readable type: `string`, `integer`, `array<string>`, `object`, `string | number`. */
  type: string;
  required: boolean;
  nullable: boolean;
  /** The default as JSON text, when the schema declares one. */
  defaultValue?: string;
  description?: string;
  /** `min 1`, `≤ 100 chars`, `pattern ^a+$`, `format uri`, … */
  constraints: string[];
  /** Allowed values (as JSON text) for enums and consts. */
  enumValues?: string[];
  /** The `$defs` name when the row's schema came through a `$ref`. */
  refName?: string;
  /** The `$ref` was already being expanded above this row: not expanded again. */
  recursive?: boolean;
}

interface Walk {
  root: Schema;
  rows: SchemaRow[];
  /** `$ref`s being expanded on the current path, to stop cycles. */
  stack: string[];
}

const MAX_DEPTH = 12;

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function json(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** Follows a local `$ref` (`#/$defs/X`, `#/definitions/X`, any `#/a/b` pointer). */
export function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isSchema(node)) return undefined;
    node = node[key];
  }
  return isSchema(node) ? node : undefined;
}

function refName(ref: string): string {
  return ref.split("/").pop() ?? ref;
}

/** The variants of a union, or null when the schema is not one. */
function unionOf(schema: Schema): Schema[] | null {
  const list = schema.anyOf ?? schema.oneOf;
  return Array.isArray(list) ? list.filter(isSchema) : null;
}

function isNullSchema(s: Schema): boolean {
  return s.type === "null" || (s.const === null && s.type === undefined);
}

/** Merges `allOf` parts (objects: properties and required united) into the schema itself. */
function mergeAllOf(root: Schema, schema: Schema): Schema {
  if (!Array.isArray(schema.allOf)) return schema;
  const { allOf, ...rest } = schema;
  let merged: Schema = { ...rest };
  for (const part0 of allOf as unknown[]) {
    if (!isSchema(part0)) continue;
    const part = typeof part0.$ref === "string" ? (resolveRef(root, part0.$ref) ?? part0) : part0;
    const props = { ...(isSchema(merged.properties) ? merged.properties : {}), ...(isSchema(part.properties) ? part.properties : {}) };
    const required = [
      ...(Array.isArray(merged.required) ? (merged.required as unknown[]) : []),
      ...(Array.isArray(part.required) ? (part.required as unknown[]) : []),
    ];
    merged = { ...part, ...merged, properties: props, required };
    if (Object.keys(props).length === 0) delete merged.properties;
    if (required.length === 0) delete merged.required;
  }
  return merged;
}

/** The schema with its `$ref` followed and `allOf` merged; siblings of `$ref` win over the target. */
function deref(w: Walk, schema: Schema): { schema: Schema; ref?: string; recursive: boolean } {
  if (typeof schema.$ref === "string") {
    const ref = schema.$ref;
    const target = resolveRef(w.root, ref);
    const { $ref: _ignored, ...siblings } = schema;
    if (!target) return { schema: { ...siblings, type: `unresolved ${ref}` }, ref, recursive: false };
    return { schema: mergeAllOf(w.root, { ...target, ...siblings }), ref, recursive: w.stack.includes(ref) };
  }
  return { schema: mergeAllOf(w.root, schema), recursive: false };
}

/** A short type label; `X | null` unions come back as X with nullable set. */
export function typeLabel(root: Schema, schema0: Schema, seen: string[] = []): { type: string; nullable: boolean } {
  let schema = schema0;
  if (typeof schema.$ref === "string") {
    if (seen.includes(schema.$ref)) return { type: refName(schema.$ref), nullable: false };
    const target = resolveRef(root, schema.$ref);
    if (!target) return { type: `unresolved ${schema.$ref}`, nullable: false };
    // A named object reads better by its name (`Point`) than as `object`.
    if (target.type === "object" || isSchema(target.properties)) return { type: refName(schema.$ref), nullable: false };
    return typeLabel(root, { ...target, ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== "$ref")) }, [...seen, schema.$ref]);
  }
  schema = mergeAllOf(root, schema);
  const union = unionOf(schema);
  if (union) {
    const nonNull = union.filter((s) => !isNullSchema(s));
    const nullable = nonNull.length < union.length;
    const labels = [...new Set(nonNull.map((s) => typeLabel(root, s, seen).type))];
    return { type: labels.join(" | ") || "null", nullable };
  }
  if ("const" in schema) return { type: json(schema.const), nullable: schema.const === null };
  if (Array.isArray(schema.enum)) {
    const nullable = schema.enum.includes(null);
    const types = [...new Set(schema.enum.filter((v) => v !== null).map((v) => (typeof v === "number" && Number.isInteger(v) ? "integer" : typeof v)))];
    return { type: `enum${types.length === 1 ? `<${types[0]}>` : ""}`, nullable };
  }
  let types: string[] = Array.isArray(schema.type)
    ? schema.type.filter((t): t is string => typeof t === "string")
    : typeof schema.type === "string"
      ? [schema.type]
      : [];
  const nullable = types.includes("null");
  types = types.filter((t) => t !== "null");
  if (types.length === 0) {
    if (isSchema(schema.properties)) types = ["object"];
    else if (schema.items !== undefined) types = ["array"];
  }
  const labels = types.map((t) => {
    if (t !== "array") return t;
    if (isSchema(schema.items)) return `array<${typeLabel(root, schema.items, seen).type}>`;
    if (Array.isArray(schema.prefixItems))
      return `[${schema.prefixItems
        .filter(isSchema)
        .map((s) => typeLabel(root, s, seen).type)
        .join(", ")}]`;
    return "array";
  });
  return { type: labels.join(" | ") || (nullable ? "null" : "any"), nullable };
}

/** The schema's bounds and formats as short phrases. */
export function constraintsOf(schema: Schema): string[] {
  const out: string[] = [];
  const num = (key: string) => (typeof schema[key] === "number" ? schema[key] : undefined);
  const pair = (lo: number | undefined, hi: number | undefined, unit: string) => {
    if (lo !== undefined && hi !== undefined) out.push(lo === hi ? `exactly ${lo}${unit}` : `${lo}–${hi}${unit}`);
    else if (lo !== undefined) out.push(`≥ ${lo}${unit}`);
    else if (hi !== undefined) out.push(`≤ ${hi}${unit}`);
  };
  pair(num("minimum"), num("maximum"), "");
  if (num("exclusiveMinimum") !== undefined) out.push(`> ${num("exclusiveMinimum")}`);
  if (num("exclusiveMaximum") !== undefined) out.push(`< ${num("exclusiveMaximum")}`);
  if (num("multipleOf") !== undefined) out.push(`multiple of ${num("multipleOf")}`);
  pair(num("minLength"), num("maxLength"), " chars");
  pair(num("minItems"), num("maxItems"), " items");
  pair(num("minProperties"), num("maxProperties"), " keys");
  if (schema.uniqueItems === true) out.push("unique items");
  if (typeof schema.pattern === "string") out.push(`pattern ${schema.pattern}`);
  if (typeof schema.format === "string") out.push(`format ${schema.format}`);
  if (schema.additionalProperties === false) out.push("no extra keys");
  else if (isSchema(schema.additionalProperties)) out.push(`extra keys: ${typeLabelShallow(schema.additionalProperties)}`);
  return out;
}

function typeLabelShallow(schema: Schema): string {
  return typeof schema.type === "string" ? schema.type : typeof schema.$ref === "string" ? refName(schema.$ref) : "any";
}

function enumValuesOf(schema: Schema): string[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum.map(json);
  if ("const" in schema) return [json(schema.const)];
  return undefined;
}

function pushRow(w: Walk, path: string, depth: number, name: string, schema0: Schema, required: boolean): void {
  const { schema, ref, recursive } = deref(w, schema0);
  const label = typeLabel(w.root, schema0);
  const union = unionOf(schema);
  const nonNull = union?.filter((s) => !isNullSchema(s));
  // `X | null` describes X: take its constraints and description when the union has none.
  const single = nonNull?.length === 1 && nonNull[0] ? deref(w, nonNull[0]) : null;
  const shown = single ? { ...single.schema, ...stripUnion(schema) } : schema;
  const row: SchemaRow = {
    path,
    depth,
    name,
    type: label.type,
    required,
    nullable: label.nullable,
    constraints: constraintsOf(shown),
  };
  if ("default" in schema) row.defaultValue = json(schema.default);
  const description = typeof shown.description === "string" ? shown.description : typeof shown.title === "string" ? shown.title : undefined;
  if (description) row.description = description;
  const values = enumValuesOf(shown);
  if (values) row.enumValues = values.filter((v) => v !== "null" || !label.nullable);
  const refShown = ref ?? single?.ref;
  if (refShown) row.refName = refName(refShown);
  if (recursive || single?.recursive) row.recursive = true;
  w.rows.push(row);
  if (row.recursive || depth >= MAX_DEPTH) return;

  const pushed = refShown ? [...w.stack, refShown] : w.stack;
  const inner: Walk = { ...w, stack: pushed };
  const target = single ? single.schema : schema;
  if (union && !single && nonNull) {
    nonNull.forEach((variant, i) => {
      const v = deref(inner, variant);
      if (isExpandable(v.schema)) pushRow(inner, `${path}|${i + 1}`, depth + 1, `option ${i + 1}`, variant, false);
    });
    return;
  }
  children(inner, path, depth + 1, target);
}

function stripUnion(schema: Schema): Schema {
  const { anyOf: _a, oneOf: _o, ...rest } = schema;
  return rest;
}

/** Objects with properties, arrays of such, and unions are worth rows of their own. */
function isExpandable(schema: Schema): boolean {
  if (isSchema(schema.properties) && Object.keys(schema.properties).length > 0) return true;
  if (isSchema(schema.items)) return true;
  return unionOf(schema) !== null;
}

function children(w: Walk, path: string, depth: number, schema: Schema): void {
  if (isSchema(schema.properties)) {
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : []);
    for (const [key, child] of Object.entries(schema.properties)) {
      if (isSchema(child)) pushRow(w, path ? `${path}.${key}` : key, depth, key, child, required.has(key));
    }
  }
  if (isSchema(schema.items)) {
    const item = deref(w, schema.items);
    if (isExpandable(item.schema) || item.recursive) pushRow(w, `${path}[]`, depth, "[item]", schema.items, true);
  }
}

/** The table rows of an input schema. A top-level non-object schema becomes a single `(input)` row. */
export function schemaRows(schema: Schema): SchemaRow[] {
  const w: Walk = { root: schema, rows: [], stack: [] };
  const top = deref(w, schema).schema;
  if (isSchema(top.properties) || (top.type === "object" && !unionOf(top))) {
    children(w, "", 0, top);
    return w.rows;
  }
  pushRow(w, "(input)", 0, "(input)", schema, true);
  return w.rows;
}
