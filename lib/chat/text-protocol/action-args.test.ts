import { describe, expect, it } from "vitest";
import { parseActionArgs } from "./action-args";

describe("parseActionArgs", () => {
  it.each([
    ["", {}],
    ['path="lib"', { path: "lib" }],
    ["path='it\\'s'", { path: "it's" }],
    ['s="a\\nb\\tc\\\\d\\u00e9\\x41"', { s: "a\nb\tc\\déA" }],
    ['s="keeps \\d unknown escapes"', { s: "keeps \\d unknown escapes" }],
    ["n=3, f=-1.5e2, big=1_000", { n: 3, f: -150, big: 1000 }],
    ["a=true, b=False, c=None, d=null", { a: true, b: false, c: null, d: null }],
    ['items=["a", \'b\', 1, [true]], obj={"k": {"n": [1, 2,]}, \'q\': "x",}', { items: ["a", "b", 1, [true]], obj: { k: { n: [1, 2] }, q: "x" } }],
    ['\n  path = "x" ,\n  n=1,\n', { path: "x", n: 1 }],
    ['__proto__="x"', JSON.parse('{"__proto__": "x"}')],
  ])("%s", (src, expected) => {
    const result = parseActionArgs(src);
    expect(result).toEqual({ ok: true, value: expected });
  });

  it("keeps __proto__ as an own key instead of a prototype", () => {
    const result = parseActionArgs('o={"__proto__": {"polluted": 1}}');
    if (!result.ok) throw new Error(result.error);
    expect(Object.keys(result.value.o as object)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['"x"', "positional"],
    ["x", "positional"],
    ["x=y", "must be a literal"],
    ["x=1 2", "expressions are not allowed"],
    ["x=(1, 2)", "Tuples"],
    ['x="""a"""', "Triple-quoted"],
    ["x={a: 1}", "quoted strings"],
    ['x="\\u12"', "hex digits"],
    ["x=", "has no value"],
  ])("%s is refused (%s)", (src, message) => {
    const result = parseActionArgs(src);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain(message);
  });
});
