import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CollectionError, loadCollection, parseCollection, toolProblems } from "./collection";
import { collectionJsonSchema } from "./collection-schema";

const EXAMPLES = path.resolve(import.meta.dirname, "../../examples/collections");

const problemOf = (text: string, extraVars: string[] = []): string => {
  try {
    parseCollection(text, "x.calls.yaml", extraVars);
  } catch (error) {
    if (error instanceof CollectionError) return error.message;
    throw error;
  }
  throw new Error("the collection loaded");
};

const GOOD = `name: demo
vars: { who: world }
calls:
  - name: first
    tool: sample_word_count
    input: { text: "hello {{who}}" }
    expect: { contains: "words=2" }
  - name: second
    tool: sample_word_count
    input: { text: "{{calls.first.output}}" }
`;

describe("collection files", () => {
  it("loads calls with their defaults: no expect means ran, no error", () => {
    const c = parseCollection(GOOD, "x.calls.yaml");
    expect(c.vars).toEqual({ who: "world" });
    expect(c.calls.map((call) => [call.name, call.expect])).toEqual([
      ["first", { contains: "words=2" }],
      ["second", {}],
    ]);
  });

  it("names the file, the line, the call and the key of a typo, before anything runs", () => {
    const text = GOOD.replace('input: { text: "{{calls.first.output}}" }', 'inptu: { text: "x" }');
    expect(problemOf(text)).toBe('x.calls.yaml:10: call 2 "second", key inptu: unknown key');
  });

  it("names the line of a bad value and of a bad expectation key", () => {
    expect(problemOf(GOOD.replace('tool: sample_word_count\n    input: { text: "{{calls', 'tool: 3\n    input: { text: "{{calls'))).toMatch(
      /^x\.calls\.yaml:9: call 2 "second", key tool: /,
    );
    expect(problemOf(GOOD.replace('contains: "words=2"', 'contians: "words=2"'))).toBe('x.calls.yaml:7: call 1 "first", key expect.contians: unknown key');
  });

  it("refuses a placeholder with no value, a later call's output, and a regex RE2 cannot run", () => {
    expect(problemOf(GOOD.replace("hello {{who}}", "hello {{whom}}"))).toBe(
      'x.calls.yaml:6: call 1 "first", key input.text: {{whom}}: no var named whom (declare it under vars, or give --var whom=…)',
    );
    expect(problemOf(GOOD.replace("hello {{who}}", "{{calls.second.output}}"))).toContain("{{calls.second.output}}: second runs after this call");
    expect(problemOf(GOOD.replace('contains: "words=2"', "matches: '(a)\\1'"))).toContain('call 1 "first", key expect.matches: ');
    expect(problemOf(GOOD.replace("name: second", "name: first"))).toContain('x.calls.yaml:8: call 2 "first", key name: another call has this name');
  });

  it("takes a var given beside the file (--var) as declared", () => {
    const text = GOOD.replace("hello {{who}}", "hello {{whom}}");
    expect(parseCollection(text, "x.calls.yaml", ["whom"]).calls).toHaveLength(2);
  });

  it("reports YAML syntax errors with their line", () => {
    expect(problemOf("name: demo\ncalls:\n  - name: [unclosed\n")).toMatch(/^x\.calls\.yaml:\d+: YAML: /);
  });

  it("has no way to load code, configure tools or approve: such keys are unknown", () => {
    const asks = `${GOOD}settings: { tools: { run_terminal_command: { enabled: true } } }\nplugins: { paths: [./evil] }\napprove: true\n`;
    expect(problemOf(asks).split("\n")).toEqual([
      "x.calls.yaml:11: key settings: unknown key",
      "x.calls.yaml:12: key plugins: unknown key",
      "x.calls.yaml:13: key approve: unknown key",
    ]);
  });

  it("lists the calls whose tool is missing, with their lines", () => {
    const collection = parseCollection(GOOD, "x.calls.yaml");
    expect(toolProblems({ collection, text: GOOD }, "x.calls.yaml", (t) => (t === "sample_word_count" ? "gone" : undefined))).toBe(
      'x.calls.yaml:5: call 1 "first", key tool: gone\nx.calls.yaml:9: call 2 "second", key tool: gone',
    );
    expect(toolProblems({ collection, text: GOOD }, "x.calls.yaml", () => undefined)).toBeUndefined();
  });

  it("refuses a file above 1 MB unread", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-collection-"));
    try {
      const file = path.join(dir, "big.calls.yaml");
      fs.writeFileSync(file, `${GOOD}# ${"x".repeat(1024 * 1024)}\n`);
      expect(() => loadCollection(file, "big.calls.yaml")).toThrow(/big\.calls\.yaml: \d+ bytes, above the 1 MB/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("loads the shipped example, and publishes a JSON Schema up to date with the zod schema (npx tsx scripts/eval-schema.ts)", () => {
    expect(loadCollection(path.join(EXAMPLES, "sample-plugin.calls.yaml")).collection.calls).toHaveLength(5);
    expect(JSON.parse(fs.readFileSync(path.join(EXAMPLES, "collection.schema.json"), "utf8"))).toEqual(collectionJsonSchema());
  });
});
