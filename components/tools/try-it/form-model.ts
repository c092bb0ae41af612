/**
 * A tool's input JSON Schema as a tree of form fields. What a form cannot express well (unions
 * of different shapes, recursive `$ref`s, free-form values) becomes a JSON field, and the raw-JSON
 * tab covers the rest. Pure, so it is tested without a browser.
 */
import { resolveRef, type Schema } from "../schema-rows";

export type FieldSpec =
  | { kind: "string"; multiline: boolean; minLength?: number; maxLength?: number; pattern?: string; format?: string }
  | { kind: "number"; integer: boolean; min?: number; max?: number; step?: number }
  | { kind: "boolean" }
  | { kind: "enum"; options: unknown[] }
  | { kind: "array"; item: FieldNode; minItems?: number; maxItems?: number }
  | { kind: "object"; fields: FieldNode[] }
  | { kind: "json" };

export interface FieldNode {
  key: string;
  required: boolean;
  nullable: boolean;
  description?: string;
  defaultValue?: unknown;
  spec: FieldSpec;
}

const LONG_TEXT = /^(text|body|content|query|code|command|note|message|prompt|description|script|patch|diff)$/i;

function isSchema(v: unknown): v is Schema {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function num(s: Schema, key: string): number | undefined {
  return typeof s[key] === "number" ? s[key] : undefined;
}

/** Follows `$ref`s (guarding cycles) and unwraps `X | null` to X. */
function normalize(root: Schema, schema: Schema, stack: string[]): { schema: Schema; nullable: boolean; recursive: boolean; stack: string[] } {
  let s = schema;
  let nullable = false;
  let next = stack;
  for (let hops = 0; hops < 16; hops++) {
    if (typeof s.$ref === "string") {
      if (next.includes(s.$ref)) return { schema: s, nullable, recursive: true, stack: next };
      const target = resolveRef(root, s.$ref);
      if (!target) return { schema: {}, nullable, recursive: false, stack: next };
      const { $ref, ...siblings } = s;
      next = [...next, $ref];
      s = { ...target, ...siblings };
      continue;
    }
    const union = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : null;
    if (union) {
      const nonNull = union.filter(isSchema).filter((v) => v.type !== "null");
      if (nonNull.length < union.length) nullable = true;
      if (nonNull.length === 1 && nonNull[0]) {
        const { anyOf: _a, oneOf: _o, ...rest } = s;
        s = { ...nonNull[0], ...rest };
        continue;
      }
    }
    if (Array.isArray(s.type) && s.type.includes("null")) {
      nullable = true;
      const types = s.type.filter((t) => t !== "null");
      s = { ...s, type: types.length === 1 ? types[0] : types };
    }
    break;
  }
  return { schema: s, nullable, recursive: false, stack: next };
}

function specOf(root: Schema, key: string, s: Schema, stack: string[], depth: number): FieldSpec {
  if (Array.isArray(s.enum) && s.enum.length > 0) return { kind: "enum", options: s.enum.filter((v) => v !== null) };
  if ("const" in s) return { kind: "enum", options: [s.const] };
  if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf) || Array.isArray(s.allOf) || depth > 8) return { kind: "json" };
  const type = typeof s.type === "string" ? s.type : isSchema(s.properties) ? "object" : undefined;
  switch (type) {
    case "string": {
      const maxLength = num(s, "maxLength");
      const spec: FieldSpec = { kind: "string", multiline: LONG_TEXT.test(key) || (maxLength !== undefined && maxLength > 200) };
      const minLength = num(s, "minLength");
      if (minLength !== undefined) spec.minLength = minLength;
      if (maxLength !== undefined) spec.maxLength = maxLength;
      if (typeof s.pattern === "string") spec.pattern = s.pattern;
      if (typeof s.format === "string") spec.format = s.format;
      return spec;
    }
    case "number":
    case "integer": {
      const spec: FieldSpec = { kind: "number", integer: type === "integer" };
      const min = num(s, "minimum") ?? num(s, "exclusiveMinimum");
      const max = num(s, "maximum") ?? num(s, "exclusiveMaximum");
      if (min !== undefined) spec.min = min;
      if (max !== undefined) spec.max = max;
      const step = num(s, "multipleOf") ?? (type === "integer" ? 1 : undefined);
      if (step !== undefined) spec.step = step;
      return spec;
    }
    case "boolean":
      return { kind: "boolean" };
    case "array": {
      if (!isSchema(s.items)) return { kind: "json" };
      const item = fieldNode(root, "item", s.items, true, stack, depth + 1);
      if (item.spec.kind === "json" && !isSchema(s.items)) return { kind: "json" };
      const spec: FieldSpec = { kind: "array", item };
      const minItems = num(s, "minItems");
      const maxItems = num(s, "maxItems");
      if (minItems !== undefined) spec.minItems = minItems;
      if (maxItems !== undefined) spec.maxItems = maxItems;
      return spec;
    }
    case "object": {
      if (!isSchema(s.properties)) return { kind: "json" };
      const required = new Set(Array.isArray(s.required) ? s.required : []);
      const fields = Object.entries(s.properties)
        .filter((e): e is [string, Schema] => isSchema(e[1]))
        .map(([k, child]) => fieldNode(root, k, child, required.has(k), stack, depth + 1));
      return { kind: "object", fields };
    }
    default:
      return { kind: "json" };
  }
}

function fieldNode(root: Schema, key: string, schema: Schema, required: boolean, stack: string[], depth: number): FieldNode {
  const n = normalize(root, schema, stack);
  const spec: FieldSpec = n.recursive ? { kind: "json" } : specOf(root, key, n.schema, n.stack, depth);
  const node: FieldNode = { key, required, nullable: n.nullable, spec };
  const description = n.schema.description ?? schema.description;
  if (typeof description === "string") node.description = description;
  if ("default" in schema) node.defaultValue = schema.default;
  else if ("default" in n.schema) node.defaultValue = n.schema.default;
  return node;
}

/** The form for a whole input: an object's fields, or null when only raw JSON can express it. */
export function formModel(schema: Schema): FieldNode[] | null {
  const root = fieldNode(schema, "(input)", schema, true, [], 0);
  if (root.spec.kind === "object") return root.spec.fields;
  if (root.spec.kind === "json" && schema.type === "object" && !isSchema(schema.properties)) return [];
  return null;
}

/** The starting value: defaults, `false` for required booleans, `{}` for required objects. */
export function initialValue(node: FieldNode): unknown {
  if (node.defaultValue !== undefined) return structuredClone(node.defaultValue);
  if (!node.required) return undefined;
  switch (node.spec.kind) {
    case "boolean":
      return false;
    case "object":
      return initialObject(node.spec.fields);
    case "array":
      return [];
    default:
      return undefined;
  }
}

export function initialObject(fields: FieldNode[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = initialValue(f);
    if (v !== undefined) out[f.key] = v;
  }
  return out;
}

/** Sets a key, dropping it when the value is undefined (an empty optional field is omitted). */
export function withKey(obj: unknown, key: string, value: unknown): Record<string, unknown> {
  const base = isSchema(obj) ? { ...obj } : {};
  if (value === undefined) delete base[key];
  else base[key] = value;
  return base;
}

/** `input` issues keyed by dotted path, for showing next to their fields. */
export function issuesByPath(issues: readonly { path: string; message: string }[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const i of issues) out.set(i.path, out.has(i.path) ? `${out.get(i.path)}; ${i.message}` : i.message);
  return out;
}
