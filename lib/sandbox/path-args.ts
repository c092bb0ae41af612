import { resolveWithin } from "./resolve";

/** The JSON Schema `format` that marks a string argument as a path in the source root. */
export const PATH_FORMAT = "path";

const isPath = (schema: unknown) => typeof schema === "object" && schema !== null && (schema as { format?: unknown }).format === PATH_FORMAT;

/**
 * The top-level properties a tool's input schema declares as source-root paths: a string with
 * `"format": "path"`, or an array whose items are (`files: string[]` of paths).
 */
export function pathArgNames(schema: Record<string, unknown>): string[] {
  const properties = schema.properties;
  if (!properties || typeof properties !== "object") return [];
  return Object.entries(properties as Record<string, unknown>)
    .filter(([, property]) => isPath(property) || isPath((property as { items?: unknown } | null)?.items))
    .map(([name]) => name);
}

/**
 * A path as the sandbox resolves it: relative to the root, `.` and `..` collapsed, symlinks inside
 * the root followed, no trailing slash ("." for the root). A path the sandbox refuses (outside the
 * root, a NUL byte) is returned as given: the tool refuses it with the sandbox's own message.
 */
export function normaliseSourcePath(root: string, value: string): string {
  const resolved = resolveWithin(root, value, { aiignore: false });
  return resolved.ok ? resolved.rel : value;
}

/**
 * `input` with every declared path argument normalised, so an approval rule and the tool see the
 * same value whatever the spelling (`./private/x`, `sub/../private/x`, `/abs/root/private/x`).
 */
export function normalisePathArgs<T>(names: readonly string[], input: T, root: string): T {
  if (names.length === 0 || !input || typeof input !== "object" || Array.isArray(input)) return input;
  const record = input as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const name of names) {
    const value = record[name];
    if (typeof value === "string") {
      const normal = normaliseSourcePath(root, value);
      if (normal !== value) (out ??= { ...record })[name] = normal;
    } else if (Array.isArray(value)) {
      const normal = value.map((item: unknown) => (typeof item === "string" ? normaliseSourcePath(root, item) : item));
      if (normal.some((item, i) => item !== value[i])) (out ??= { ...record })[name] = normal;
    }
  }
  return (out ?? input) as T;
}
