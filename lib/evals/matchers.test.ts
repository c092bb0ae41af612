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
    expect(judge(c, seen([{ tool: "write_note", input: {}, outcome: "not-admitted" }])).pass).toBe(true);
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
