import { z } from "zod";
import type { Schema } from "../schema-rows";

export interface Issue {
  path: string;
  message: string;
}

type Parser = { safeParse(v: unknown): { success: boolean; error?: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } } };
const cache = new WeakMap<Schema, Parser | null>();

/**
 * Checks an input against the tool's JSON Schema in the browser, before anything is sent. The
 * server checks again with the tool's own schema and is the authority; a schema zod cannot read
 * here is simply left to the server.
 */
export function validateAgainst(schema: Schema, value: unknown): Issue[] {
  let parser = cache.get(schema);
  if (parser === undefined) {
    try {
      parser = z.fromJSONSchema(schema);
    } catch {
      parser = null;
    }
    cache.set(schema, parser);
  }
  if (!parser) return [];
  const result = parser.safeParse(value);
  if (result.success || !result.error) return [];
  return result.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
}
