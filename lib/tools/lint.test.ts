import { describe, expect, it } from "vitest";
import { lintTool, type LintRule } from "./lint";

const base: { name: string; description: string; inputSchema: Record<string, unknown>; requiresConfirmation: boolean; readonly: boolean } = {
  name: "t",
  description: "Do one thing.\n\nArgs: path — the file.",
  inputSchema: { type: "object", properties: { path: { type: "string", description: "The file" } }, required: ["path"] },
  requiresConfirmation: false,
  readonly: true,
};

const rules = (overrides: Partial<typeof base>): [LintRule, string][] => lintTool({ ...base, ...overrides }).map((f) => [f.rule, f.severity]);

describe("the description lint", () => {
  it("finds nothing in a well-described tool", () => {
    expect(lintTool(base)).toEqual([]);
  });

  it("wants a first line, under 120 characters", () => {
    expect(rules({ description: "\nDo one thing." })).toEqual([["summary-missing", "error"]]);
    expect(rules({ description: `${"word ".repeat(30)}\n\nArgs: path.` })).toEqual([["summary-too-long", "error"]]);
    expect(rules({ description: `${"w".repeat(120)}\n\npath` })).toEqual([]);
  });

  it("wants arguments described; a required one explained somewhere", () => {
    const schema = { type: "object", properties: { path: { type: "string" }, depth: { type: "number" } }, required: ["path"] };
    // path is named in the text (a warning: the schema alone does not say); depth nowhere, but optional.
    expect(lintTool({ ...base, inputSchema: schema }).map((f) => [f.rule, f.severity, f.arg])).toEqual([
      ["arg-undescribed", "warning", "path"],
      ["arg-undescribed", "warning", "depth"],
    ]);
    expect(rules({ description: "Do one thing.", inputSchema: schema })).toEqual([
      ["required-unexplained", "error"],
      ["arg-undescribed", "warning"],
    ]);
  });

  it("wants every enum value named (nullable and array enums too)", () => {
    const schema = (values: unknown) => ({
      type: "object",
      properties: { mode: { anyOf: [{ type: "string", enum: values }, { type: "null" }], description: "How: fast or slow" } },
    });
    expect(rules({ inputSchema: schema(["fast", "slow"]) })).toEqual([]);
    const found = lintTool({ ...base, inputSchema: schema(["fast", "slow", "exact"]) });
    expect(found.map((f) => f.rule)).toEqual(["enum-undocumented"]);
    expect(found[0]?.message).toContain('"exact"');
    const items = { type: "object", properties: { kinds: { type: "array", items: { enum: ["a1", "b2"] }, description: "a1 only" } } };
    expect(rules({ inputSchema: items })).toEqual([["enum-undocumented", "warning"]]);
  });

  it("wants a tool that asks first to say what it changes", () => {
    expect(rules({ requiresConfirmation: true, description: "Notes.\n\nArgs: path — the file." })).toEqual([["confirm-unsaid", "error"]]);
    expect(rules({ requiresConfirmation: true, description: "Append a note.\n\nArgs: path — the file." })).toEqual([]);
  });
});
