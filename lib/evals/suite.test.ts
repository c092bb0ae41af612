import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadSuite, parseSuite, SuiteError } from "./suite";
import { suiteJsonSchema } from "./suite-schema";

const EXAMPLES = path.resolve(import.meta.dirname, "../../examples/evals");

function errorOf(text: string): string {
  try {
    parseSuite(text, "my.eval.yaml");
  } catch (error) {
    expect(error).toBeInstanceOf(SuiteError);
    return (error as Error).message;
  }
  throw new Error("the suite was accepted");
}

describe("suite files", () => {
  it("reads the issue's minimal format, with defaults", () => {
    const suite = parseSuite(
      `name: builtins
matrix: { models: [offline], modes: [native, text], trials: 2 }
cases:
  - name: list-sub
    prompt: "list files in sub"
    expect:
      calls: [{ tool: list_files, args: { path: sub } }]
      notCalled: [run_terminal_command]
  - name: reset-asks
    prompt: 'reset_xgmi_link_stats {"node":"n1"}'
    confirm: notAdmitted
    expect: { calls: [{ tool: reset_xgmi_link_stats }] }
  - name: bare
    prompt: hello
`,
      "s.eval.yaml",
    );
    expect(suite.matrix).toEqual({ models: ["offline"], modes: ["native", "text"], trials: 2 });
    expect(suite.cases[0]?.confirm).toBe("notAdmitted");
    expect(suite.cases[0]?.expect.calls[0]).toEqual({ tool: "list_files", args: { path: "sub" }, argsMatch: "partial" });
    expect(suite.cases[2]?.expect).toEqual({ calls: [], ordered: false, only: false, noCalls: false, notCalled: [] });
  });

  it("names the file, the case and the key of a wrong value", () => {
    const message = errorOf(`name: s
cases:
  - name: first
    prompt: hi
  - name: second
    prompt: hi
    confirm: always
`);
    expect(message).toMatch(/^my\.eval\.yaml: case 2 "second", key confirm: /);
  });

  it("names a nested key and an unknown key", () => {
    expect(errorOf(`name: s\ncases:\n  - name: c\n    prompt: hi\n    expect: { calls: [{ tool: 3 }] }\n`)).toMatch(
      /my\.eval\.yaml: case 1 "c", key expect\.calls\[0\]\.tool: /,
    );
    expect(errorOf(`name: s\ncases:\n  - name: c\n    prompt: hi\n    expects: {}\n`)).toBe('my.eval.yaml: case 1 "c": Unrecognized key: "expects"');
  });

  it("refuses a case with neither or both of prompt and messages", () => {
    expect(errorOf(`name: s\ncases:\n  - name: c\n`)).toMatch(/case 1 "c", key prompt: give either prompt or messages/);
    expect(errorOf(`name: s\ncases:\n  - name: c\n    prompt: a\n    messages: [{ role: user, content: b }]\n`)).toMatch(/give either prompt or messages/);
  });

  it("refuses duplicate case names, bad regexes, a bad matrix and broken YAML", () => {
    expect(errorOf(`name: s\ncases:\n  - { name: c, prompt: a }\n  - { name: c, prompt: b }\n`)).toMatch(/case 2 "c", key name: another case has this name/);
    expect(errorOf(`name: s\ncases:\n  - name: c\n    prompt: a\n    expect: { calls: [{ tool: t, args: { q: { regex: "(" } } }] }\n`)).toMatch(
      /case 1 "c", key expect\.calls\[0\]\.args\.q\.regex: /,
    );
    expect(errorOf(`name: s\nmatrix: { modes: [json] }\ncases: [{ name: c, prompt: a }]\n`)).toMatch(/my\.eval\.yaml: key matrix\.modes\[0\]: /);
    expect(errorOf(`name: s\ncases: [\n`)).toMatch(/^my\.eval\.yaml: YAML: /);
  });

  it("refuses at load a regex RE2 cannot run, naming the file, the case and the key", () => {
    const suite = (expect: string) => `name: s\ncases:\n  - { name: first, prompt: a }\n  - name: second\n    prompt: a\n    expect: ${expect}\n`;
    expect(errorOf(suite('{ calls: [{ tool: t, args: { q: { regex: "(a)\\\\1" } } }] }'))).toMatch(
      /^my\.eval\.yaml: case 2 "second", key expect\.calls\[0\]\.args\.q\.regex: .*invalid escape sequence.*RE2/,
    );
    expect(errorOf(suite('{ answer: { regex: "x(?=y)" } }'))).toMatch(/^my\.eval\.yaml: case 2 "second", key expect\.answer\.regex: .*RE2/);
    expect(errorOf(suite('{ calls: [{ tool: t, args: { o: { optional: { deep: { regex: "(a)\\\\1" } } } } }] }'))).toMatch(
      /key expect\.calls\[0\]\.args\.o\.optional\.deep\.regex: /,
    );
    expect(errorOf(suite('{ answer: { regex: "x", flags: "g" } }'))).toMatch(/key expect\.answer\.flags: flags are i, m and s/);
    expect(errorOf(suite('{ calls: [{ tool: t, args: { q: { schema: { type: string, pattern: "(a+)+$" } } } }] }'))).toMatch(
      /key expect\.calls\[0\]\.args\.q\.schema: "pattern" is not allowed/,
    );
    // The catastrophic-on-V8 pattern is fine for RE2.
    expect(parseSuite(suite('{ answer: { regex: "(a+)+$" } }'), "ok.eval.yaml").cases[1]?.expect.answer?.regex).toBe("(a+)+$");
  });

  it("refuses at load a matcher that can never pass: an array or object as a schema's const or enum, an empty anyOf", () => {
    const suite = (args: string) => `name: s\ncases:\n  - name: c\n    prompt: a\n    expect: { calls: [{ tool: t, args: ${args} }] }\n`;
    expect(errorOf(suite("{ xs: { schema: { const: [1, 2] } } }"))).toBe(
      'my.eval.yaml: case 1 "c", key expect.calls[0].args.xs.schema.const: an array or object as const never matches (a schema compares it by reference); use { anyOf: [...] }',
    );
    expect(errorOf(suite("{ o: { schema: { type: object, properties: { p: { enum: [a, { b: 1 }] } } } } }"))).toMatch(
      /key expect\.calls\[0\]\.args\.o\.schema\.properties\.p\.enum: an array or object as enum never matches .*use \{ anyOf: \[\.\.\.\] \}$/,
    );
    expect(errorOf(suite("{ q: { schema: { anyOf: [] } } }"))).toMatch(/key expect\.calls\[0\]\.args\.q\.schema\.anyOf: an empty anyOf never matches$/);
    expect(errorOf(suite("{ q: { anyOf: [] } }"))).toMatch(/key expect\.calls\[0\]\.args\.q\.anyOf: an empty anyOf never matches$/);
    // Primitive values compare by value: fine.
    expect(parseSuite(suite("{ q: { schema: { enum: [a, 1, null] } } }"), "ok.eval.yaml").cases).toHaveLength(1);
  });

  it("refuses at load a { bfcl } matcher of the wrong shape, and takes BFCL's forms", () => {
    const suite = (args: string) => `name: s\ncases:\n  - name: c\n    prompt: a\n    expect: { calls: [{ tool: t, args: ${args} }] }\n`;
    expect(errorOf(suite("{ city: { bfcl: Paris } }"))).toBe(
      'my.eval.yaml: case 1 "c", key expect.calls[0].args.city.bfcl: bfcl takes a non-empty list of accepted values',
    );
    expect(errorOf(suite("{ city: { bfcl: [] } }"))).toMatch(/key expect\.calls\[0\]\.args\.city\.bfcl: bfcl takes a non-empty list/);
    expect(errorOf(suite("{ route: { bfcl: [{ from: [Paris] }, { from: Paris }] } }"))).toBe(
      "my.eval.yaml: case 1 \"c\", key expect.calls[0].args.route.bfcl[1].from: a dict's accepted values are a list per key (BFCL's { key: [values] })",
    );
    expect(errorOf(suite("{ people: { optional: { bfcl: [[{ name: Al }]] } } }"))).toMatch(
      /key expect\.calls\[0\]\.args\.people\.optional\.bfcl\[0\]\[0\]\.name: a dict's/,
    );
    const ok = parseSuite(
      suite("{ city: { bfcl: ['San Francisco, CA', ''] }, route: { bfcl: [{ from: [Paris, ''] }] }, people: { bfcl: [[{ name: [Al] }]] } }"),
      "ok.eval.yaml",
    );
    expect(ok.cases[0]?.expect.calls[0]?.args?.city).toEqual({ bfcl: ["San Francisco, CA", ""] });
  });

  it("names the file that cannot be read", () => {
    expect(() => loadSuite("/nonexistent/x.eval.yaml")).toThrow(/x\.eval\.yaml: cannot read the suite \(ENOENT\)/);
  });

  it("loads the example suites", () => {
    const builtins = loadSuite(path.join(EXAMPLES, "builtins.eval.yaml"));
    expect(builtins.suite.cases.length).toBeGreaterThanOrEqual(12);
  });

  it("publishes a JSON Schema that is up to date with the zod schema (npx tsx scripts/eval-schema.ts)", () => {
    expect(JSON.parse(fs.readFileSync(path.join(EXAMPLES, "suite.schema.json"), "utf8"))).toEqual(suiteJsonSchema());
  });
});
