import { describe, expect, it } from "vitest";
import { judge, matchArgs, matchValue, type MadeCall } from "./matchers";
import { caseSchema } from "./suite-schema";

const call = (tool: string, input: unknown = {}): MadeCall => ({ tool, input, outcome: "executed" });
const evalCase = (expect: unknown) => caseSchema.parse({ name: "c", prompt: "p", expect });
const seen = (calls: MadeCall[], answer = "", steps = 2) => ({ calls, answer, steps });

describe("argument matchers", () => {
  it("matches a plain value by equality, an object partially", () => {
    expect(matchValue("sub", "sub")).toBeUndefined();
    expect(matchValue("lib", "sub")).toBe('"lib", expected "sub"');
    expect(matchValue(undefined, "sub")).toBe("missing");
    expect(matchValue({ a: 1, b: 2 }, { a: 1 })).toBeUndefined();
    expect(matchValue({ a: 2 }, { a: 1 })).toBe(".a 2, expected 1");
    expect(matchValue([1, 2], [1, 2])).toBeUndefined();
  });

  it("matches exactly", () => {
    expect(matchValue({ a: 1 }, { exact: { a: 1 } })).toBeUndefined();
    expect(matchValue({ a: 1, b: 2 }, { exact: { a: 1 } })).toMatch(/expected exactly/);
  });

  it("matches by regex, on text or on JSON", () => {
    expect(matchValue("runChatTurn engine", { regex: "runChatTurn" })).toBeUndefined();
    expect(matchValue("grep", { regex: "^search" })).toBe('"grep" does not match /^search/');
    expect(matchValue(42, { regex: "^4" })).toBeUndefined();
    expect(matchValue(undefined, { regex: "x" })).toBe("missing");
  });

  it("matches by JSON Schema", () => {
    const schema = { schema: { type: "string", pattern: "\\.md$" } };
    expect(matchValue("README.md", schema)).toBeUndefined();
    expect(matchValue("package.json", schema)).toMatch(/fails its schema/);
    expect(matchValue(3, { schema: { type: "integer", minimum: 1 } })).toBeUndefined();
    expect(matchValue(0, { schema: { type: "integer", minimum: 1 } })).toMatch(/fails its schema/);
  });

  it("runs regexes on RE2: a catastrophic pattern on a long answer still returns a result", () => {
    const long = `${"a".repeat(50_000)}b`;
    // On V8's backtracking RegExp this pattern takes exponential time on this text.
    expect(matchValue(long, { regex: "(a+)+$" })).toMatch(/does not match \/\(a\+\)\+\$\//);
    expect(matchValue(`${long}a`, { regex: "(a+)+$" })).toBeUndefined();
    const c = evalCase({ answer: { regex: "^(a|aa)+$" } });
    expect(judge(c, seen([], long)).reasons).toEqual(["answer does not match /^(a|aa)+$/"]);
  });

  it("takes regex flags", () => {
    expect(matchValue("README.MD", { regex: "readme\\.md$", flags: "i" })).toBeUndefined();
    expect(matchValue("README.MD", { regex: "readme\\.md$" })).toMatch(/does not match/);
    expect(matchValue("a\nb", { regex: "^b$", flags: "m" })).toBeUndefined();
    expect(matchValue("a\nb", { regex: "a.b", flags: "s" })).toBeUndefined();
    expect(matchValue("a\nb", { regex: "a.b" })).toMatch(/does not match \/a\.b\/$/);
    const c = evalCase({ answer: { regex: "^here", flags: "i" } });
    expect(judge(c, seen([], "Here it is")).pass).toBe(true);
  });

  it("matches one of several values, arrays and objects compared whole", () => {
    expect(matchValue(10, { anyOf: [10, 10.5] })).toBeUndefined();
    expect(
      matchValue([1, 2], {
        anyOf: [
          [1, 2],
          [2, 1],
        ],
      }),
    ).toBeUndefined();
    expect(
      matchValue([2, 1], {
        anyOf: [
          [1, 2],
          [2, 1],
        ],
      }),
    ).toBeUndefined();
    expect(matchValue([1, 2, 3], { anyOf: [[1, 2]] })).toBe("[1,2,3], expected one of [[1,2]]");
    expect(matchValue({ a: 1 }, { anyOf: [{ a: 1 }] })).toBeUndefined();
    // Whole, not partial: an extra key is a different object.
    expect(matchValue({ a: 1, b: 2 }, { anyOf: [{ a: 1 }] })).toMatch(/expected one of/);
    expect(matchValue(undefined, { anyOf: ["x"] })).toBe("missing");
  });

  it("accepts an optional argument absent, or present and matching", () => {
    expect(matchValue(undefined, { optional: "celsius" })).toBeUndefined();
    expect(matchValue("celsius", { optional: "celsius" })).toBeUndefined();
    expect(matchValue("kelvin", { optional: "celsius" })).toBe('"kelvin", expected "celsius"');
    expect(matchValue("F", { optional: { anyOf: ["F", "fahrenheit"] } })).toBeUndefined();
    expect(matchValue("X", { optional: { regex: "^f", flags: "i" } })).toMatch(/does not match \/\^f\/i/);
    expect(matchArgs({ city: "Paris" }, { tool: "w", args: { city: "Paris", unit: { optional: "C" } }, argsMatch: "exact" })).toBeUndefined();
    expect(matchArgs({ city: "Paris", unit: "K" }, { tool: "w", args: { city: "Paris", unit: { optional: "C" } }, argsMatch: "exact" })).toBe(
      'unit "K", expected "C"',
    );
  });

  it("checks listed arguments only, unless argsMatch is exact", () => {
    expect(matchArgs({ pattern: "TODO", path: "." }, { tool: "grep_code", args: { pattern: "TODO" }, argsMatch: "partial" })).toBeUndefined();
    expect(matchArgs({ pattern: "TODO", path: "." }, { tool: "grep_code", args: { pattern: "TODO" }, argsMatch: "exact" })).toBe("unexpected argument path");
    expect(matchArgs({}, { tool: "grep_code", args: { pattern: "TODO" }, argsMatch: "partial" })).toBe("pattern missing");
  });
});

describe("judging a trial", () => {
  it("passes when every expected call was proposed with matching arguments", () => {
    const c = evalCase({ calls: [{ tool: "list_files", args: { path: "sub" } }] });
    expect(judge(c, seen([call("list_files", { path: "sub" })]))).toEqual({ pass: true, reasons: [] });
  });

  it("counts a proposed but not admitted call as proposed", () => {
    const c = evalCase({ calls: [{ tool: "write_note" }] });
    expect(judge(c, seen([{ tool: "write_note", input: {}, outcome: "not_admitted" }])).pass).toBe(true);
  });

  it("says which tool was called instead", () => {
    const c = evalCase({ calls: [{ tool: "search_code" }] });
    expect(judge(c, seen([call("grep_code")])).reasons).toEqual(["called grep_code instead of search_code"]);
    expect(judge(c, seen([])).reasons).toEqual(["did not call search_code"]);
  });

  it("accepts any of several tools", () => {
    const c = evalCase({ calls: [{ tool: ["search_code", "search_repo_map"] }] });
    expect(judge(c, seen([call("search_repo_map")])).pass).toBe(true);
    expect(judge(c, seen([call("grep_code")])).reasons).toEqual(["called grep_code instead of search_code or search_repo_map"]);
  });

  it("says which argument did not match", () => {
    const c = evalCase({ calls: [{ tool: "list_files", args: { path: "sub" } }] });
    expect(judge(c, seen([call("list_files", { path: "lib" })])).reasons).toEqual(['list_files called with path "lib", expected "sub"']);
  });

  it("checks order only when asked", () => {
    const calls = [call("read_file"), call("list_files")];
    expect(judge(evalCase({ calls: [{ tool: "list_files" }, { tool: "read_file" }] }), seen(calls)).pass).toBe(true);
    expect(judge(evalCase({ calls: [{ tool: "list_files" }, { tool: "read_file" }], ordered: true }), seen(calls)).reasons).toEqual([
      "read_file called out of order",
    ]);
  });

  it("pairs expected and proposed calls as an assignment, not first-fit", () => {
    // First-fit gives the first expected call (any path) the first read_file, leaving the second
    // expected call (path b) nothing; a valid pairing exists and must be found.
    const c = evalCase({ calls: [{ tool: "read_file" }, { tool: "read_file", args: { path: "b" } }] });
    expect(judge(c, seen([call("read_file", { path: "b" }), call("read_file", { path: "a" })])).pass).toBe(true);
  });

  it("passes the right calls in reverse order when order is free, and fails them when it is not", () => {
    const expected = [
      { tool: "get_weather", args: { city: "Paris" } },
      { tool: "get_weather", args: { city: "Berlin" } },
    ];
    const reversed = [call("get_weather", { city: "Berlin" }), call("get_weather", { city: "Paris" })];
    expect(judge(evalCase({ calls: expected, only: true }), seen(reversed))).toEqual({ pass: true, reasons: [] });
    expect(judge(evalCase({ calls: expected, ordered: true }), seen(reversed)).reasons).toEqual(["get_weather called out of order"]);
  });

  it("fails an extra call under only, and not without it", () => {
    const calls = [call("list_files", { path: "sub" }), call("list_files", { path: "lib" })];
    expect(judge(evalCase({ calls: [{ tool: "list_files", args: { path: "sub" } }] }), seen(calls)).pass).toBe(true);
    expect(judge(evalCase({ calls: [{ tool: "list_files", args: { path: "sub" } }], only: true }), seen(calls)).reasons).toEqual(["extra call of list_files"]);
    // A wrong call is reported once, as a wrong call, not also as an extra one.
    expect(judge(evalCase({ calls: [{ tool: "list_files", args: { path: "x" } }], only: true }), seen([calls[0]!])).reasons).toEqual([
      'list_files called with path "sub", expected "x"',
    ]);
  });

  it("fails any call under noCalls", () => {
    const c = evalCase({ noCalls: true });
    expect(judge(c, seen([])).pass).toBe(true);
    expect(judge(c, seen([call("list_files"), call("list_files"), call("read_file")])).reasons).toEqual([
      "called list_files, read_file; expected no tool call",
    ]);
    expect(() => evalCase({ noCalls: true, calls: [{ tool: "x" }] })).toThrow(/noCalls with expected calls can never pass/);
  });

  it("fails a forbidden call", () => {
    const c = evalCase({ notCalled: ["run_terminal_command"] });
    expect(judge(c, seen([call("run_terminal_command", { command: "ls" })])).reasons).toEqual(["called run_terminal_command, which must not be called"]);
    expect(judge(c, seen([call("list_files")])).pass).toBe(true);
  });

  it("checks the answer by text and by regex", () => {
    const c = evalCase({ answer: { contains: ["alpha", "beta"], regex: "^Here" } });
    expect(judge(c, seen([], "Here: alpha beta")).pass).toBe(true);
    expect(judge(c, seen([], "alpha only")).reasons).toEqual(['answer lacks "beta"', "answer does not match /^Here/"]);
  });

  it("checks the steps taken", () => {
    const c = evalCase({ maxSteps: 1 });
    expect(judge(c, seen([], "", 2)).reasons).toEqual(["took 2 steps (at most 1)"]);
    expect(judge(c, seen([], "", 1)).pass).toBe(true);
  });
});
