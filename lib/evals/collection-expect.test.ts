import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/testing/random";
import { checkCall, type ObservedCall } from "./collection-expect";

/** Reproduce a property failure: COLLECTION_PROPERTY_SEED=<seed> COLLECTION_PROPERTY_RUNS=1 npx vitest run lib/evals/collection-expect.test.ts */
const RUNS = Number(process.env.COLLECTION_PROPERTY_RUNS ?? 300);
const FIRST_SEED = Number(process.env.COLLECTION_PROPERTY_SEED ?? 90_311);

const ran = (text: string, over: Partial<ObservedCall> = {}): ObservedCall => ({ outcome: "ran", text, output: text, isError: false, durationMs: 5, ...over });
const keys = (expect: Parameters<typeof checkCall>[0], seen: ObservedCall) => checkCall(expect, seen).map((f) => f.key);

describe("a call's expectations", () => {
  it("with none, passes a call that ran without error and fails an error or a refusal", () => {
    expect(keys({}, ran("ok"))).toEqual([]);
    expect(keys({}, ran("Error: no such file", { isError: true }))).toEqual(["error"]);
    expect(keys({}, { ...ran("Not run"), outcome: "not-admitted" })).toEqual(["notAdmitted"]);
  });

  it("error: true passes an Error: result only; notAdmitted: true a call that did not run only", () => {
    expect(keys({ error: true }, ran("Error: gone", { isError: true }))).toEqual([]);
    expect(keys({ error: true }, ran("fine"))).toEqual(["error"]);
    expect(keys({ notAdmitted: true }, { ...ran("Not written: needs approval"), outcome: "not-admitted" })).toEqual([]);
    expect(keys({ notAdmitted: true }, ran("Wrote note"))).toEqual(["notAdmitted"]);
  });

  it("contains, equals, matches (RE2), json and maxMs each name themselves when they fail, with expected and actual", () => {
    const seen = ran('{"total":2,"items":["a","b"]}', { durationMs: 40 });
    expect(checkCall({ contains: ["total", "nope"] }, seen)).toEqual([{ key: "contains", expected: 'contains "nope"', actual: seen.text }]);
    expect(keys({ equals: seen.text }, seen)).toEqual([]);
    expect(keys({ equals: { total: 2, items: ["a", "b"] } }, seen)).toEqual([]);
    expect(keys({ equals: { total: 2 } }, seen)).toEqual(["equals"]);
    expect(keys({ matches: '"total":\\d+' }, seen)).toEqual([]);
    expect(keys({ matches: "^TOTAL", flags: "i" }, ran("total=1"))).toEqual([]);
    expect(keys({ matches: "^x" }, seen)).toEqual(["matches"]);
    expect(keys({ json: { total: 2 } }, seen)).toEqual([]);
    expect(keys({ json: { items: { anyOf: [["a", "b"]] } } }, seen)).toEqual([]);
    expect(checkCall({ json: { total: 3 } }, seen)).toEqual([{ key: "json", expected: '{"total":3}', actual: ".total 2, expected 3" }]);
    expect(checkCall({ json: { total: 2 } }, ran("words=2"))).toEqual([{ key: "json", expected: '{"total":2}', actual: "the output is not JSON" }]);
    expect(checkCall({ maxMs: 39 }, seen)).toEqual([{ key: "maxMs", expected: "at most 39 ms", actual: "40 ms" }]);
    expect(keys({ maxMs: 40 }, seen)).toEqual([]);
  });

  it("a JSON value the tool returned is read as it is, not as its text", () => {
    expect(keys({ json: { a: { b: 1 } } }, ran("a.b=1", { output: { a: { b: 1 }, c: 2 } }))).toEqual([]);
  });

  it(`property: an object passes json with any subset of its own keys, and fails with a key it lacks (${RUNS} seeded runs)`, () => {
    for (let seed = FIRST_SEED; seed < FIRST_SEED + RUNS; seed++) {
      const random = mulberry32(seed);
      const pick = (n: number) => Math.floor(random() * n);
      const value = (depth: number): unknown => {
        const kind = pick(depth > 2 ? 3 : 5);
        if (kind === 0) return pick(100);
        if (kind === 1) return `s${pick(100)}`;
        if (kind === 2) return pick(2) === 0;
        if (kind === 3) return Array.from({ length: pick(3) }, () => value(depth + 1));
        return Object.fromEntries(Array.from({ length: 1 + pick(3) }, (_, i) => [`k${i}`, value(depth + 1)]));
      };
      const output = Object.fromEntries(Array.from({ length: 1 + pick(4) }, (_, i) => [`f${i}`, value(1)]));
      const subset = Object.fromEntries(Object.entries(output).filter(() => pick(2) === 0));
      const seen = ran(JSON.stringify(output));
      try {
        expect(keys({ json: subset }, seen)).toEqual([]);
        expect(keys({ json: { ...subset, absent: 1 } }, seen)).toEqual(["json"]);
        // The text contains every piece cut from it, and equals itself.
        const from = pick(seen.text.length);
        expect(keys({ contains: seen.text.slice(from, from + pick(10)), equals: seen.text }, seen)).toEqual([]);
      } catch (error) {
        throw new Error(`seed ${seed}: ${seen.text}: ${(error as Error).message}`);
      }
    }
  });
});
