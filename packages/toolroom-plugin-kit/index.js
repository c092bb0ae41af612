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

/** What `ctx.files` throws; the server has its own copy, so match with isFileAccessError, not instanceof. */
export class FileAccessError extends Error {
  constructor(message, path) {
    super(message);
    this.name = "FileAccessError";
    this.path = path;
  }
}

export function isFileAccessError(error) {
  return error instanceof Error && error.name === "FileAccessError";
}

/** Sets JSON Schema `format: "path"` on an argument: zod (through `.meta`, keeping its description) or a plain JSON Schema property. */
export function pathArgument(schema) {
  if (schema && typeof schema.meta === "function") return schema.meta({ ...(schema.meta() ?? {}), format: "path" });
  if (schema && typeof schema === "object") return { ...schema, format: "path" };
  throw new TypeError("pathArgument takes a zod schema or a JSON Schema property");
}

/** A resource, returned as given. */
export function defineResource(resource) {
  return resource;
}

/** A resource template, returned as given. */
export function defineResourceTemplate(template) {
  return template;
}

/** A prompt, returned as given. */
export function definePrompt(prompt) {
  return prompt;
}

/** Rich content: a base64 part from bytes (`image` or `audio`). */
export function mediaContent(type, bytes, mimeType) {
  const data = typeof bytes === "string" ? bytes : Buffer.from(bytes).toString("base64");
  return { type, data, mimeType };
}
