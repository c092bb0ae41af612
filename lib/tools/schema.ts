import { z } from "zod";
import { isJsonSchemaWrapper, isZodLike } from "./define";
import type { InputSchema } from "./types";

export type JsonSchema = Record<string, unknown>;

interface StandardJsonSchema {
  jsonSchema?: { input?: (options: { target: string }) => JsonSchema };
}

/**
 * The input as JSON Schema. Zod schemas from any zod instance expose the Standard JSON Schema
 * converter on `~standard`, so a plugin's own zod needs no conversion code of ours.
 */
export async function inputJsonSchema(schema: InputSchema): Promise<JsonSchema> {
  return (await describeInputSchema(schema)).inputSchema;
}

/**
 * The input as JSON Schema without its `$schema` (providers get the schema alone), and that
 * `$schema` as `dialect`: an MCP client is told which JSON Schema dialect it reads (SEP-1613).
 */
export async function describeInputSchema(schema: InputSchema): Promise<{ inputSchema: JsonSchema; dialect?: string }> {
  if (isZodLike(schema)) {
    const standard = schema["~standard"] as StandardJsonSchema;
    const converted = standard.jsonSchema?.input?.({ target: "draft-2020-12" });
    return splitDialect(converted ?? z.toJSONSchema(schema as unknown as z.ZodType, { io: "input", unrepresentable: "any" }));
  }
  if (isJsonSchemaWrapper(schema)) return splitDialect({ ...(await schema.jsonSchema) });
  throw new Error("input is neither a zod schema nor a JSON Schema (use jsonSchema({...}))");
}

function splitDialect(schema: JsonSchema): { inputSchema: JsonSchema; dialect?: string } {
  const { $schema: dialect, ...inputSchema } = schema;
  return typeof dialect === "string" ? { inputSchema, dialect } : { inputSchema };
}

export type Validation = { ok: true; value: unknown } | { ok: false; message: string };

interface Validator {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } };
}

const jsonValidators = new WeakMap<object, Validator>();

/** Validates (and, for zod, coerces defaults into) a tool's input. */
export async function validateInput(schema: InputSchema, value: unknown): Promise<Validation> {
  let validator: Validator;
  if (isZodLike(schema)) validator = schema;
  else {
    const cached = jsonValidators.get(schema);
    validator = cached ?? z.fromJSONSchema(await inputJsonSchema(schema));
    jsonValidators.set(schema, validator);
  }
  const result = validator.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues.map((issue) => {
    const at = issue.path.length ? issue.path.map(String).join(".") : "input";
    return `${at}: ${issue.message}`;
  });
  return { ok: false, message: issues.join("; ") };
}
