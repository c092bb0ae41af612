import { describe, expect, it } from "vitest";
import { z } from "zod";
import { schemaRows, type Schema, type SchemaRow } from "./schema-rows";

function row(rows: SchemaRow[], path: string): SchemaRow {
  const found = rows.find((r) => r.path === path);
  if (!found) throw new Error(`no row ${path} in ${rows.map((r) => r.path).join(", ")}`);
  return found;
}

const fromZod = (schema: z.ZodType): Schema => z.toJSONSchema(schema, { io: "input" });

describe("schemaRows", () => {
  it("1. flat object: types, required, descriptions", () => {
    const rows = schemaRows({
      type: "object",
      properties: { path: { type: "string", description: "File to read" }, limit: { type: "integer" } },
      required: ["path"],
    });
    expect(rows.map((r) => [r.path, r.type, r.required, r.depth])).toEqual([
      ["path", "string", true, 0],
      ["limit", "integer", false, 0],
    ]);
    expect(row(rows, "path").description).toBe("File to read");
  });

  it("2. nested objects are indented under their parent", () => {
    const rows = schemaRows({
      type: "object",
      properties: {
        filter: {
          type: "object",
          properties: { tag: { type: "string" }, range: { type: "object", properties: { from: { type: "number" } }, required: ["from"] } },
        },
      },
    });
    expect(rows.map((r) => [r.path, r.depth])).toEqual([
      ["filter", 0],
      ["filter.tag", 1],
      ["filter.range", 1],
      ["filter.range.from", 2],
    ]);
    expect(row(rows, "filter.range.from").required).toBe(true);
  });

  it("3. arrays of primitives are one row; arrays of objects expand their item", () => {
    const rows = schemaRows({
      type: "object",
      properties: {
        tags: { type: "array", items: { type: "string" }, minItems: 1 },
        edits: { type: "array", items: { type: "object", properties: { line: { type: "integer" }, text: { type: "string" } }, required: ["line"] } },
      },
    });
    expect(row(rows, "tags").type).toBe("array<string>");
    expect(row(rows, "tags").constraints).toContain("≥ 1 items");
    expect(rows.some((r) => r.path === "tags[]")).toBe(false);
    expect(row(rows, "edits").type).toBe("array<object>");
    expect(row(rows, "edits[]").depth).toBe(1);
    expect(row(rows, "edits[].line")).toMatchObject({ depth: 2, required: true, type: "integer" });
  });

  it("4. enums list their values", () => {
    const rows = schemaRows(fromZod(z.object({ mode: z.enum(["fast", "thorough"]).describe("How hard to look") })));
    expect(row(rows, "mode")).toMatchObject({ type: "enum<string>", enumValues: ['"fast"', '"thorough"'], description: "How hard to look", required: true });
  });

  it("5. unions of primitives read as A | B", () => {
    const rows = schemaRows({ type: "object", properties: { id: { anyOf: [{ type: "string" }, { type: "integer" }] } } });
    expect(row(rows, "id").type).toBe("string | integer");
    expect(rows).toHaveLength(1);
  });

  it("6. unions of objects get one row per option", () => {
    const rows = schemaRows({
      type: "object",
      properties: {
        target: {
          oneOf: [
            { type: "object", properties: { file: { type: "string" } }, required: ["file"] },
            { type: "object", properties: { url: { type: "string", format: "uri" } } },
          ],
        },
      },
    });
    expect(row(rows, "target").type).toBe("object");
    expect(row(rows, "target|1").name).toBe("option 1");
    expect(row(rows, "target|1.file").required).toBe(true);
    expect(row(rows, "target|2.url").constraints).toContain("format uri");
  });

  it("7. optional and nullable (zod .optional().nullable())", () => {
    const rows = schemaRows(fromZod(z.object({ note: z.string().max(40).nullable().optional(), flag: z.boolean().nullable() })));
    expect(row(rows, "note")).toMatchObject({ type: "string", nullable: true, required: false });
    expect(row(rows, "note").constraints).toContain("≤ 40 chars");
    expect(row(rows, "flag")).toMatchObject({ type: "boolean", nullable: true, required: true });
  });

  it("8. type arrays with null are nullable", () => {
    const rows = schemaRows({ type: "object", properties: { n: { type: ["number", "null"] } } });
    expect(row(rows, "n")).toMatchObject({ type: "number", nullable: true });
  });

  it("9. defaults are shown as JSON (and zod defaults make a field optional on input)", () => {
    const rows = schemaRows(fromZod(z.object({ limit: z.number().int().default(20), glob: z.string().default("**/*.ts") })));
    expect(row(rows, "limit")).toMatchObject({ defaultValue: "20", required: false });
    expect(row(rows, "glob").defaultValue).toBe('"**/*.ts"');
  });

  it("10. $ref into $defs is followed and named", () => {
    const rows = schemaRows({
      type: "object",
      properties: { from: { $ref: "#/$defs/Point" }, to: { $ref: "#/$defs/Point", description: "End" } },
      required: ["from", "to"],
      $defs: { Point: { type: "object", properties: { x: { type: "number" }, y: { type: "number" } }, required: ["x", "y"] } },
    });
    expect(row(rows, "from")).toMatchObject({ type: "Point", refName: "Point" });
    expect(row(rows, "from.x").required).toBe(true);
    expect(row(rows, "to").description).toBe("End");
    expect(row(rows, "to.y").depth).toBe(1);
  });

  it("11. recursive $ref is shown once, not expanded forever", () => {
    const rows = schemaRows({
      type: "object",
      properties: { tree: { $ref: "#/definitions/Node" } },
      definitions: { Node: { type: "object", properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/definitions/Node" } } } } },
    });
    expect(row(rows, "tree.children").type).toBe("array<Node>");
    expect(row(rows, "tree.children[]")).toMatchObject({ recursive: true, refName: "Node" });
    expect(rows.some((r) => r.path.startsWith("tree.children[].name"))).toBe(false);
  });

  it("12. numeric, string and array constraints", () => {
    const rows = schemaRows(
      fromZod(
        z.object({
          n: z.number().min(1).max(100),
          k: z.number().gt(0).multipleOf(5),
          title: z
            .string()
            .regex(/^[a-z-]+$/)
            .min(1)
            .max(60),
          ids: z.array(z.string()).max(3),
        }),
      ),
    );
    expect(row(rows, "n").constraints).toContain("1–100");
    expect(row(rows, "k").constraints).toEqual(expect.arrayContaining(["> 0", "multiple of 5"]));
    expect(row(rows, "title").constraints).toEqual(expect.arrayContaining(["1–60 chars", "pattern ^[a-z-]+$"]));
    expect(row(rows, "ids").constraints).toContain("≤ 3 items");
  });

  it("13. nullable $ref via anyOf keeps the ref and expands it", () => {
    const rows = schemaRows({
      type: "object",
      properties: { owner: { anyOf: [{ $ref: "#/$defs/User" }, { type: "null" }] } },
      $defs: { User: { type: "object", description: "A person", properties: { login: { type: "string" } } } },
    });
    expect(row(rows, "owner")).toMatchObject({ type: "User", nullable: true, refName: "User", description: "A person" });
    expect(row(rows, "owner.login").depth).toBe(1);
  });

  it("14. allOf parts are merged; const is a single enum value", () => {
    const rows = schemaRows({
      type: "object",
      properties: {
        cfg: { allOf: [{ type: "object", properties: { a: { type: "string" } }, required: ["a"] }, { properties: { b: { const: "x" } } }] },
      },
    });
    expect(row(rows, "cfg.a").required).toBe(true);
    expect(row(rows, "cfg.b")).toMatchObject({ type: '"x"', enumValues: ['"x"'] });
  });

  it("15. an empty object schema has no rows; a non-object schema has one", () => {
    expect(schemaRows({ type: "object", properties: {} })).toEqual([]);
    expect(schemaRows({ type: "object" })).toEqual([]);
    expect(schemaRows({ type: "string", minLength: 2 })).toEqual([expect.objectContaining({ path: "(input)", type: "string", constraints: ["≥ 2 chars"] })]);
  });

  it("16. the sample plugin's write_note schema", () => {
    const rows = schemaRows(
      fromZod(
        z.object({
          title: z
            .string()
            .regex(/^[A-Za-z0-9-]{1,60}$/)
            .describe("File name without extension"),
          body: z.string().max(10000),
        }),
      ),
    );
    expect(rows.map((r) => r.name)).toEqual(["title", "body"]);
    expect(row(rows, "body").constraints).toEqual(["≤ 10000 chars"]);
    expect(row(rows, "title").constraints[0]).toMatch(/^pattern /);
  });

  it("17. unresolved $ref is labelled, not thrown", () => {
    const rows = schemaRows({ type: "object", properties: { x: { $ref: "#/$defs/Missing" } } });
    expect(row(rows, "x").type).toBe("unresolved #/$defs/Missing");
  });
});
