import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/testing/random";
import { parseRef, refsIn, substitute, SubstitutionError, type Scope } from "./collection-vars";

/**
 * Reproduce a property failure with the seed it prints:
 *   COLLECTION_PROPERTY_SEED=<seed> COLLECTION_PROPERTY_RUNS=1 npx vitest run lib/evals/collection-vars.test.ts
 */
const RUNS = Number(process.env.COLLECTION_PROPERTY_RUNS ?? 300);
const FIRST_SEED = Number(process.env.COLLECTION_PROPERTY_SEED ?? 41_207);

const scope: Scope = {
  vars: { who: "world", n: 3, on: true },
  calls: {
    list: { text: '{"total":2,"items":[{"name":"a"},{"name":"b"}]}', output: '{"total":2,"items":[{"name":"a"},{"name":"b"}]}' },
    typed: { text: "ignored", output: { deep: { value: [10, 20] } } },
    plain: { text: "words=2 lines=1", output: "words=2 lines=1" },
  },
};

describe("placeholders", () => {
  it("replaces vars and earlier outputs inside text, in every string of nested input", () => {
    expect(substitute({ a: "hi {{who}}", b: ["{{ who }}!", { c: "n={{n}} {{calls.plain.output}}" }], k: 1 }, scope)).toEqual({
      a: "hi world",
      b: ["world!", { c: "n=3 words=2 lines=1" }],
      k: 1,
    });
  });

  it("keeps a value's type when the string is the placeholder alone", () => {
    expect(substitute({ n: "{{n}}", on: "{{on}}", total: "{{calls.list.json.total}}", v: "{{calls.typed.json.deep.value.1}}" }, scope)).toEqual({
      n: 3,
      on: true,
      total: 2,
      v: 20,
    });
    expect(substitute("{{calls.list.json.items.1}}", scope)).toEqual({ name: "b" });
    expect(substitute("items: {{calls.list.json.items.0}}", scope)).toBe('items: {"name":"a"}');
  });

  it("names what has no value", () => {
    const why = (v: string) => {
      try {
        substitute(v, scope);
      } catch (error) {
        expect(error).toBeInstanceOf(SubstitutionError);
        return (error as Error).message;
      }
      return "substituted";
    };
    expect(why("{{nope}}")).toBe("{{nope}}: no var named nope");
    expect(why("{{calls.gone.output}}")).toBe("{{calls.gone.output}}: no earlier call named gone has a result");
    expect(why("{{calls.plain.json.x}}")).toBe("{{calls.plain.json.x}}: the output of plain is not JSON");
    expect(why("{{calls.list.json.items.5.name}}")).toBe("{{calls.list.json.items.5.name}}: the output of list has nothing at items.5");
    expect(why("{{calls.list}}")).toBe("{{calls.list}}: write {{calls.NAME.output}} or {{calls.NAME.json.path}}");
    expect(why("{{constructor}}")).toBe("{{constructor}}: no var named constructor");
  });

  it("finds every placeholder with the key path of its string", () => {
    expect(refsIn({ a: "{{x}} and {{calls.b.output}}", list: [1, "{{y}}"] })).toEqual([
      { text: "x", path: ["a"] },
      { text: "calls.b.output", path: ["a"] },
      { text: "y", path: ["list", 1] },
    ]);
    expect(parseRef("calls.step-1.json.a.b")).toEqual({ kind: "json", call: "step-1", path: ["a", "b"] });
  });

  it(`property: any text around placeholders of known vars comes out with the values in place and no placeholder left (${RUNS} seeded runs)`, () => {
    const alphabet = "ab {}=.-_\n{{";
    for (let seed = FIRST_SEED; seed < FIRST_SEED + RUNS; seed++) {
      const random = mulberry32(seed);
      const pick = (n: number) => Math.floor(random() * n);
      const vars: Record<string, string> = {};
      let template = "";
      let expected = "";
      for (let i = 0, parts = 1 + pick(6); i < parts; i++) {
        // Literal text with no `{{`…`}}` pair of its own, then a placeholder of a fresh var.
        let literal = "";
        for (let j = pick(8); j > 0; j--) literal += alphabet[pick(alphabet.length)];
        literal = literal
          .replace(/\{+/g, "{")
          .replace(/\}+/g, "}")
          .replace(/\{[^}]*$/, "");
        const name = `v${i}`;
        vars[name] = String(pick(1000));
        template += `${literal}{{${name}}}`;
        expected += `${literal}${vars[name]}`;
      }
      try {
        const got = substitute({ text: template }, { vars, calls: {} }) as { text: unknown };
        expect(String(got.text)).toBe(expected);
        expect(refsIn(got)).toEqual([]);
      } catch (error) {
        throw new Error(`seed ${seed}: ${JSON.stringify(template)}: ${(error as Error).message}`);
      }
    }
  });
});
