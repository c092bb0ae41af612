import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Schema } from "../schema-rows";
import { formModel, initialObject, withKey } from "./form-model";

const zs = (s: z.ZodType): Schema => z.toJSONSchema(s, { io: "input" });

describe("formModel", () => {
  it("maps strings, bounded numbers, booleans and enums", () => {
    const fields = formModel(
      zs(z.object({ body: z.string().max(10000), n: z.number().int().min(1).max(9), on: z.boolean(), mode: z.enum(["a", "b"]).optional() })),
    );
    expect(fields?.map((f) => [f.key, f.spec.kind, f.required])).toEqual([
      ["body", "string", true],
      ["n", "number", true],
      ["on", "boolean", true],
      ["mode", "enum", false],
    ]);
    expect(fields?.[0]?.spec).toMatchObject({ multiline: true, maxLength: 10000 });
    expect(fields?.[1]?.spec).toMatchObject({ integer: true, min: 1, max: 9, step: 1 });
    expect(fields?.[3]?.spec).toMatchObject({ options: ["a", "b"] });
  });

  it("nests objects and arrays of objects; unions of shapes become JSON fields", () => {
    const fields = formModel(
      zs(
        z.object({
          where: z.object({ path: z.string() }),
          edits: z.array(z.object({ line: z.number() })),
          id: z.union([z.string(), z.object({ n: z.number() })]),
        }),
      ),
    );
    expect(fields?.[0]?.spec).toMatchObject({ kind: "object", fields: [{ key: "path", spec: { kind: "string" } }] });
    expect(fields?.[1]?.spec).toMatchObject({ kind: "array", item: { spec: { kind: "object" } } });
    expect(fields?.[2]?.spec.kind).toBe("json");
  });

  it("unwraps nullable and follows $ref, stopping at recursion", () => {
    const fields = formModel({
      type: "object",
      properties: { n: { anyOf: [{ type: "number" }, { type: "null" }] }, node: { $ref: "#/$defs/N" } },
      $defs: { N: { type: "object", properties: { kids: { type: "array", items: { $ref: "#/$defs/N" } } } } },
    });
    expect(fields?.[0]).toMatchObject({ nullable: true, spec: { kind: "number" } });
    expect(fields?.[1]?.spec).toMatchObject({ kind: "object", fields: [{ key: "kids", spec: { kind: "array", item: { spec: { kind: "json" } } } }] });
  });

  it("a non-object input is raw JSON only; an open object has no fields", () => {
    expect(formModel({ type: "string" })).toBeNull();
    expect(formModel({ type: "object" })).toEqual([]);
  });

  it("starts from defaults, false booleans and empty required objects", () => {
    const fields =
      formModel(zs(z.object({ limit: z.number().default(20), on: z.boolean(), opt: z.string().optional(), cfg: z.object({ deep: z.boolean() }) }))) ?? [];
    expect(initialObject(fields)).toEqual({ limit: 20, on: false, cfg: { deep: false } });
  });

  it("withKey drops undefined values", () => {
    expect(withKey({ a: 1, b: 2 }, "a", undefined)).toEqual({ b: 2 });
    expect(withKey(undefined, "a", 1)).toEqual({ a: 1 });
  });
});
