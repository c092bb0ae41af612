import { describe, expect, it } from "vitest";
import { diffCalls } from "./call-diff";
import type { MadeCall } from "./matchers";
import type { ExpectedCall } from "./suite-schema";

const call = (tool: string, input: Record<string, unknown>): MadeCall => ({ tool, input, outcome: "executed" });
const exp = (tool: string | string[], args?: Record<string, unknown>, argsMatch: "partial" | "exact" = "partial"): ExpectedCall => ({
  tool,
  ...(args ? { args } : {}),
  argsMatch,
});

describe("diffCalls", () => {
  it("pairs matching calls and shows each argument matched", () => {
    const rows = diffCalls({ calls: [exp("read_file", { path: "README.md" })] }, [call("read_file", { path: "README.md" })]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "match", expectedTool: "read_file", actualTool: "read_file", position: 1 });
    expect(rows[0]!.args).toEqual([{ key: "path", expected: '"README.md"', actual: '"README.md"', status: "match", why: null }]);
  });

  it("names a wrong value, a missing argument and an extra one under argsMatch exact", () => {
    const rows = diffCalls({ calls: [exp("grep_code", { pattern: "TODO", path: { regex: "^lib", flags: "i" } }, "exact")] }, [
      call("grep_code", { pattern: "FIXME", glob: "*.ts" }),
    ]);
    expect(rows[0]!.status).toBe("wrong-value");
    expect(rows[0]!.args).toEqual([
      { key: "pattern", expected: '"TODO"', actual: '"FIXME"', status: "wrong", why: '"FIXME", expected "TODO"' },
      { key: "path", expected: "/^lib/i", actual: null, status: "missing", why: null },
      { key: "glob", expected: null, actual: '"*.ts"', status: "extra", why: "not allowed (argsMatch: exact)" },
    ]);
  });

  it("says wrong tool when another tool stands in for the expected one, and missing when nothing does", () => {
    expect(diffCalls({ calls: [exp("search_code")] }, [call("grep_code", { pattern: "x" })]).map((r) => r.status)).toEqual(["wrong-tool"]);
    expect(diffCalls({ calls: [exp("search_code")] }, []).map((r) => [r.status, r.why])).toEqual([["missing", "did not call search_code"]]);
  });

  it("keeps a right call made in the wrong order beside its expectation as out of order", () => {
    const rows = diffCalls({ calls: [exp("list_files"), exp("read_file")], ordered: true }, [call("read_file", {}), call("list_files", {})]);
    expect(rows.map((r) => [r.status, r.actualTool, r.position])).toEqual([
      ["match", "list_files", 2],
      ["out-of-order", "read_file", 1],
    ]);
    // Order-free, the same calls both match (the assignment, not first-fit).
    expect(diffCalls({ calls: [exp("list_files"), exp("read_file")] }, [call("read_file", {}), call("list_files", {})]).map((r) => r.status)).toEqual([
      "match",
      "match",
    ]);
  });

  it("lists calls nobody expected: extra under only, noCalls or notCalled, else merely unexpected", () => {
    const calls = [call("list_files", { path: "a" }), call("list_files", { path: "b" })];
    expect(diffCalls({ calls: [exp("list_files", { path: "a" })], only: true }, calls).map((r) => r.status)).toEqual(["match", "extra"]);
    expect(diffCalls({ calls: [exp("list_files", { path: "a" })] }, calls).map((r) => r.status)).toEqual(["match", "unexpected"]);
    expect(diffCalls({ noCalls: true }, calls.slice(0, 1)).map((r) => r.status)).toEqual(["extra"]);
    expect(diffCalls({ notCalled: ["list_files"] }, calls.slice(0, 1))[0]).toMatchObject({ status: "extra", why: "must not be called (notCalled)" });
  });

  it("says plainly that a noCalls case expected no call at all (there are no expected ones to go beyond)", () => {
    const [row] = diffCalls({ noCalls: true }, [call("get_weather", { city: "Paris" })]);
    expect(row).toMatchObject({ status: "extra", expectedTool: null, actualTool: "get_weather", why: "the case expects no tool call at all (noCalls)" });
    expect(diffCalls({ calls: [exp("a")], only: true }, [call("a", {}), call("b", {})])[1]!.why).toBe("no call beyond the expected ones (only)");
  });

  it("reads anyOf and optional expectations in the diff", () => {
    const rows = diffCalls({ calls: [exp("f", { unit: { anyOf: ["c", "f"] }, n: { optional: 3 } })] }, [call("f", { unit: "k" })]);
    expect(rows[0]!.args.map((a) => [a.key, a.expected, a.status])).toEqual([
      ["unit", 'one of "c", "f"', "wrong"],
      ["n", "absent or 3", "match"],
    ]);
  });

  it("reads matchers inside nested fields (BFCL's nested answers) as matchers, not as the suite's raw keys", () => {
    const expected = {
      loc: { city: { anyOf: ["Paris", "paris"] }, unit: { optional: { anyOf: ["c", "f"] } }, zip: { regex: "^75", flags: "" } },
      n: { anyOf: [2] },
    };
    const [row] = diffCalls({ calls: [exp("f", expected)] }, [call("f", { loc: { city: "Lyon" }, n: 2 })]);
    expect(row!.args.map((a) => [a.key, a.expected])).toEqual([
      ["loc", '{ city: one of "Paris", "paris"; unit: absent or one of "c", "f"; zip: /^75/ }'],
      ["n", "2"],
    ]);
  });

  it("reads BFCL's matcher in the diff: its accepted values, and whether it may be absent", () => {
    const expected = exp("get_weather", {
      city: { bfcl: ["San Francisco, CA", "SF"] },
      unit: { bfcl: ["celsius", ""] },
      route: { bfcl: [{ to: ["Berlin"] }] },
    });
    const rows = diffCalls({ calls: [expected] }, [call("get_weather", { city: "san francisco ca", route: { to: "Berlin", via: "x" } })]);
    expect(rows[0]!.args.map((a) => [a.key, a.expected, a.status, a.why])).toEqual([
      ["city", 'BFCL: "San Francisco, CA" | "SF"', "match", null],
      ["unit", 'BFCL: "celsius" (or absent)', "match", null],
      ["route", 'BFCL: {"to":["Berlin"]}', "wrong", "unexpected key via"],
    ]);
  });
});
