// The runtime half of the kit: typed identity helpers. A tool is a plain object, so a plugin that
// does not want them needs nothing from here; the types are in index.d.ts.

/** A tool, returned as given: the types infer `execute`'s input from the `input` schema. */
export function defineTool(tool) {
  return tool;
}

/** A factory `(ctx) => tool`, for a tool that needs per-chat state. */
export function defineToolFactory(factory) {
  return factory;
}

/** Wraps a plain JSON Schema as a tool input (for plugins that do not use zod). */
export function jsonSchema(schema) {
  return { jsonSchema: schema };
}
