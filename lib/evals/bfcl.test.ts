import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bfclCategory, bfclMatcher, bfclSchema, bfclSuiteYaml, BfclImportError } from "./bfcl";
import { judge, type MadeCall } from "./matchers";
import { parseSuite } from "./suite";

const FIXTURES = path.resolve(import.meta.dirname, "__fixtures__/bfcl");

function imported(category: string, withAnswers = true) {
  const file = (name: string) => ({ file: name, text: fs.readFileSync(path.join(FIXTURES, name), "utf8") });
  const yaml = bfclSuiteYaml({
    name: `bfcl-${category}`,
    questions: file(`BFCL_v4_${category}.json`),
    ...(withAnswers ? { answers: file(`possible_answer/BFCL_v4_${category}.json`) } : {}),
  });
  return parseSuite(yaml, `bfcl-${category}.eval.yaml`);
}

const call = (tool: string, input: unknown): MadeCall => ({ tool, input, outcome: "executed" });
const seen = (calls: MadeCall[]) => ({ calls, answer: "", steps: 1 });

describe("importing BFCL", () => {
  it("maps BFCL's types to JSON Schema's, nested ones too", () => {
    expect(
      bfclSchema({
        type: "dict",
        properties: {
          x: { type: "float" },
          p: { type: "tuple", items: { type: "float" } },
          o: { type: "dict", properties: { b: { type: "boolean" } } },
          a: { type: "any" },
        },
        required: ["x"],
      }),
    ).toEqual({
      type: "object",
      properties: {
        x: { type: "number" },
        p: { type: "array", items: { type: "number" } },
        o: { type: "object", properties: { b: { type: "boolean" } } },
        a: {},
      },
      required: ["x"],
    });
  });

  it('keeps plain matchers for numbers and booleans ("" = optional) and BFCL\'s rule for the rest', () => {
    expect(bfclMatcher([10])).toBe(10);
    expect(bfclMatcher([2, 3, ""])).toEqual({ optional: { anyOf: [2, 3] } });
    expect(bfclMatcher([true, false])).toEqual({ anyOf: [true, false] });
    // Strings, lists and dicts: BFCL standardizes strings and checks dicts whole, which the plain forms do not.
    expect(bfclMatcher(["km", "kilometers"])).toEqual({ bfcl: ["km", "kilometers"] });
    expect(bfclMatcher(["units", ""])).toEqual({ bfcl: ["units", ""] });
    expect(bfclMatcher([["today"], ""])).toEqual({ bfcl: [["today"], ""] });
    expect(bfclMatcher([{ strict: [true, ""] }, ""])).toEqual({ bfcl: [{ strict: [true, ""] }, ""] });
    expect(bfclMatcher([""])).toEqual({ bfcl: [""] });
    expect(bfclMatcher([3, "3"])).toEqual({ bfcl: [3, "3"] });
  });

  it("reads a category from an id", () => {
    expect(bfclCategory("simple_python_12")).toBe("simple_python");
    expect(bfclCategory("live_simple_0-0-0")).toBe("live_simple");
    expect(bfclCategory("parallel_multiple_3")).toBe("parallel_multiple");
  });

  it("imports simple entries: one case per id, the functions as the case's tools, exact calls", () => {
    const suite = imported("simple_python");
    expect(suite.cases.map((c) => c.name)).toEqual(["simple_python_0", "simple_python_1"]);
    const [first, second] = suite.cases;
    expect(first?.prompt).toBe("What is the area of a triangle with base 10 and height 5?");
    expect(first?.tools).toEqual([
      {
        name: "geometry_triangle_area",
        description: "Area of a triangle from its base and height.",
        inputSchema: {
          type: "object",
          properties: {
            base: { type: "integer", description: "The base." },
            height: { type: "integer", description: "The height." },
            unit: { type: "string", description: "The unit of the lengths.", default: "units" },
          },
          required: ["base", "height"],
        },
      },
    ]);
    expect(first?.expect).toMatchObject({
      only: true,
      ordered: false,
      calls: [{ tool: "geometry_triangle_area", args: { base: 10, height: 5, unit: { bfcl: ["units", ""] } }, argsMatch: "exact" }],
    });
    // A system message goes before the user's text: a case's conversation is user and assistant turns.
    expect(second?.prompt).toBe("Answer in metric units.\n\nConvert 3.5 miles, rounded to 2 decimals.");
    expect(second?.tools?.[0]).toMatchObject({
      inputSchema: { properties: { value: { type: "number" }, point: { type: "array", items: { type: "number" } } } },
    });

    expect(judge(first!, seen([call("geometry_triangle_area", { base: 10, height: 5 })])).pass).toBe(true);
    expect(judge(first!, seen([call("geometry_triangle_area", { base: 10, height: 5, unit: "units" })])).pass).toBe(true);
    expect(judge(first!, seen([call("geometry_triangle_area", { base: 10, height: 5, unit: "cm" })])).reasons).toEqual([
      'geometry_triangle_area called with unit "cm", expected one of ["units"] (ignoring case, spaces and ,./-_*^)',
    ]);
    expect(judge(first!, seen([call("geometry_triangle_area", { base: 10, height: 5, scale: 2 })])).reasons).toEqual([
      "geometry_triangle_area called with unexpected argument scale",
    ]);
    expect(judge(second!, seen([call("convert_length", { value: 3.5, to: "kilometers", options: { strict: true } })])).pass).toBe(true);
    expect(judge(second!, seen([call("convert_length", { value: 3.5, to: "miles" })])).pass).toBe(false);
  });

  it("imports multiple: the right function among several", () => {
    const [c] = imported("multiple").cases;
    expect(c?.tools?.map((t) => (typeof t === "string" ? t : t.name))).toEqual(["book_table", "order_taxi"]);
    expect(judge(c!, seen([call("book_table", { restaurant: "Luigis", party: 2 })])).pass).toBe(true);
    expect(judge(c!, seen([call("order_taxi", { to: "Luigi's" })])).reasons).toEqual(["called order_taxi instead of book_table"]);
  });

  it("imports parallel: the calls in any order, nothing more", () => {
    const [c] = imported("parallel").cases;
    expect(c?.expect.ordered).toBe(false);
    const berlin = call("get_weather", { city: "Berlin" });
    const paris = call("get_weather", { city: "Paris", unit: "celsius", days: ["today"] });
    expect(judge(c!, seen([berlin, paris])).pass).toBe(true);
    expect(judge(c!, seen([paris, berlin, call("get_weather", { city: "Rome" })])).reasons).toEqual(["extra call of get_weather"]);
    expect(judge(c!, seen([paris])).reasons).toEqual(["did not call get_weather"]);
  });

  it("scores as BFCL's checker does: standardized strings, nested dicts whole, alternatives, lists of strings and of dicts", () => {
    const [weather, flight, trip, people] = imported("live_simple").cases;
    const pass = (c: typeof weather, tool: string, input: unknown) => judge(c!, seen([call(tool, input)]));

    expect(weather?.expect.calls[0]?.args).toEqual({ location: { bfcl: ["San Francisco, CA"] }, unit: { bfcl: ["fahrenheit", ""] } });
    expect(pass(weather, "get_current_weather", { location: "san francisco ca" }).pass).toBe(true);
    expect(pass(weather, "get_current_weather", { location: "San Francisco, CA", unit: "Fahrenheit" }).pass).toBe(true);
    expect(pass(weather, "get_current_weather", { location: "San Francisco" }).reasons).toEqual([
      'get_current_weather called with location "San Francisco", expected one of ["San Francisco, CA"] (ignoring case, spaces and ,./-_*^)',
    ]);

    // Two alternative nested dicts: either passes (the old anyOf of raw { key: [values] } dicts matched neither).
    expect(pass(flight, "book_flight", { route: { from: "Paris", to: "Berlin" }, passengers: 2 }).pass).toBe(true);
    expect(pass(flight, "book_flight", { route: { from: "cdg", to: "ber" }, passengers: 2 }).pass).toBe(true);
    expect(pass(flight, "book_flight", { route: { from: "Paris", to: "BER" }, passengers: 2 }).pass).toBe(false);
    // An extra nested key fails, as in BFCL (the old partial object matcher passed it).
    expect(pass(flight, "book_flight", { route: { from: "Paris", to: "Berlin", via: "Frankfurt" }, passengers: 2 }).pass).toBe(false);
    expect(flight?.expect.calls[0]?.args?.passengers).toBe(2);

    expect(pass(trip, "plan_trip", { cities: ["new york", "los angeles"] }).pass).toBe(true);
    expect(pass(trip, "plan_trip", { cities: ["NYC", "LA"] }).pass).toBe(true);
    expect(pass(trip, "plan_trip", { cities: ["Los Angeles", "New York"] }).pass).toBe(false);

    expect(pass(people, "add_people", { people: [{ name: "Alice" }, { name: "bob", age: 25 }] }).pass).toBe(true);
    expect(pass(people, "add_people", { people: [{ name: "Alice", age: 30 }, { name: "Bob" }] }).reasons).toEqual([
      "add_people called with people [1].age missing",
    ]);
  });

  it("imports irrelevance as no call at all, without an answers file", () => {
    const [c] = imported("irrelevance", false).cases;
    expect(c?.expect.noCalls).toBe(true);
    expect(judge(c!, seen([])).pass).toBe(true);
    expect(judge(c!, seen([call("calculate_tip", { bill: 10 })])).pass).toBe(false);
  });

  it("refuses multi-turn categories, and an entry without its answer", () => {
    expect(() => imported("multi_turn_base", false)).toThrow(BfclImportError);
    expect(() => imported("multi_turn_base", false)).toThrow(/multi_turn_base_0: multi-turn categories \(multi_turn_base\) need state/);
    expect(() => imported("simple_python", false)).toThrow("simple_python_0: no possible answer with this id (give --answers)");
  });

  it("refuses an answer that calls a function its entry does not offer (the files do not belong together)", () => {
    const questions = {
      file: "BFCL_v4_simple_python.json",
      text: '{"id": "simple_python_0", "question": [[{"role": "user", "content": "hi"}]], "function": [{"name": "f", "parameters": {"type": "dict", "properties": {}}}]}',
    };
    const answers = { file: "possible_answer/BFCL_v4_simple_python.json", text: '{"id": "simple_python_0", "ground_truth": [{"g": {}}]}' };
    expect(() => bfclSuiteYaml({ name: "x", questions, answers })).toThrow(
      "simple_python_0: the possible answer calls g, which is not among the entry's functions (f)",
    );
  });

  it("refuses a category it does not know", () => {
    const questions = {
      file: "BFCL_v4_format_sensitivity.json",
      text: '{"id": "format_sensitivity_0", "question": [[{"role": "user", "content": "hi"}]], "function": []}',
    };
    expect(() => bfclSuiteYaml({ name: "x", questions })).toThrow(/format_sensitivity_0: category format_sensitivity cannot be imported/);
  });
});
