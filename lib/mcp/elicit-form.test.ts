import { describe, expect, it } from "vitest";
import type { ElicitSchema } from "@/lib/tools/types";
import { answerWithDefaults, checkAnswers, defaultAnswers, elicitFields, parseTyped } from "./elicit-form";

// The conformance suite's SEP-1034 form, with SEP-1330's enum variants added.
const SCHEMA: ElicitSchema = {
  type: "object",
  properties: {
    name: { type: "string", description: "User name", default: "John Doe" },
    age: { type: "integer", default: 30, minimum: 0 },
    score: { type: "number", default: 95.5 },
    status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", default: true },
    size: {
      type: "string",
      title: "Size",
      oneOf: [
        { const: "s", title: "Small" },
        { const: "l", title: "Large" },
      ],
    },
    legacy: { type: "string", enum: ["a", "b"], enumNames: ["Alpha", "Beta"] },
    toppings: {
      type: "array",
      items: {
        anyOf: [
          { const: "ham", title: "Ham" },
          { const: "olive", title: "Olives" },
        ],
      },
      default: ["olive"],
      maxItems: 1,
    },
    email: { type: "string", format: "email" },
  },
  required: ["size"],
};

describe("elicitation forms", () => {
  it("reads every primitive and enum variant, with labels and defaults", () => {
    const fields = elicitFields(SCHEMA);
    expect(fields.map((f) => [f.name, f.kind])).toEqual([
      ["name", "text"],
      ["age", "integer"],
      ["score", "number"],
      ["status", "choice"],
      ["verified", "boolean"],
      ["size", "choice"],
      ["legacy", "choice"],
      ["toppings", "choices"],
      ["email", "text"],
    ]);
    const byName = Object.fromEntries(fields.map((f) => [f.name, f]));
    expect(byName.size).toMatchObject({
      label: "Size",
      required: true,
      options: [
        { value: "s", label: "Small" },
        { value: "l", label: "Large" },
      ],
    });
    expect(byName.legacy!.options).toEqual([
      { value: "a", label: "Alpha" },
      { value: "b", label: "Beta" },
    ]);
    expect(byName.toppings!.options.map((o) => o.label)).toEqual(["Ham", "Olives"]);
    expect(defaultAnswers(fields)).toEqual({ name: "John Doe", age: 30, score: 95.5, status: "active", verified: true, toppings: ["olive"] });
  });

  it("ignores a default of the wrong type rather than sending it", () => {
    const fields = elicitFields({ type: "object", properties: { n: { type: "number", default: "ten" } } });
    expect(defaultAnswers(fields)).toEqual({});
  });

  it("checks answers: required, types, bounds, options, formats", () => {
    const fields = elicitFields(SCHEMA);
    const bad = checkAnswers(fields, { age: 1.5, status: "gone", toppings: ["ham", "olive"], email: "nope" });
    expect(bad).toEqual({
      ok: false,
      errors: {
        size: "required",
        age: "must be a whole number",
        status: "must be one of the options",
        toppings: "choose at most 1",
        email: "must be an email address",
      },
    });
    const good = checkAnswers(fields, { size: "l", name: "", verified: false });
    // An emptied optional field is left out, so the server can tell it was not given.
    expect(good).toEqual({ ok: true, content: { size: "l", verified: false } });
  });

  it("--yes accepts the defaults, and declines when a required field has none", () => {
    expect(answerWithDefaults(SCHEMA)).toEqual({ action: "decline" });
    const { required: _, ...optional } = SCHEMA;
    expect(answerWithDefaults(optional)).toEqual({
      action: "accept",
      content: { name: "John Doe", age: 30, score: 95.5, status: "active", verified: true, toppings: ["olive"] },
    });
  });

  it("parses typed answers: numbers, yes/no, options by number or label", () => {
    const byName = Object.fromEntries(elicitFields(SCHEMA).map((f) => [f.name, f]));
    expect(parseTyped(byName.age!, " 42 ")).toBe(42);
    expect(parseTyped(byName.verified!, "n")).toBe(false);
    expect(parseTyped(byName.size!, "2")).toBe("l");
    expect(parseTyped(byName.size!, "small")).toBe("s");
    expect(parseTyped(byName.toppings!, "1, Olives")).toEqual(["ham", "olive"]);
    expect(parseTyped(byName.name!, "  ")).toBeUndefined();
  });
});
