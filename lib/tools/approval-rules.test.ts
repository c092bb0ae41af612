import { describe, expect, it } from "vitest";
import { broadAllow, compileRule, firstMatch, RuleError, ruleDecisionText, type RuleCall, type RuleSpec } from "./approval-rules";

const call = (over: Partial<RuleCall> = {}): RuleCall => ({
  toolName: "run_terminal_command",
  sourcePackage: "toolroom",
  origin: "builtin",
  readonly: false,
  input: { command: "ls -la" },
  ...over,
});
const rule = (spec: RuleSpec, key = "settings:x") => compileRule(spec, { key, origin: key.startsWith("ui:") ? "ui" : "settings" });
const matches = (spec: Omit<RuleSpec, "decision">, c: RuleCall = call()) => rule({ ...spec, decision: "allow" }).matches(c);

describe("approval rule matching", () => {
  it("matches the tool name as a whole-name glob", () => {
    expect(matches({ tool: "run_terminal_command" })).toBe(true);
    expect(matches({ tool: "run_*" })).toBe(true);
    expect(matches({ tool: "run" })).toBe(false);
    expect(matches({ tool: "reset_*" }, call({ toolName: "reset_fabric" }))).toBe(true);
    expect(matches({ tool: "reset_?" }, call({ toolName: "reset_ab" }))).toBe(false);
    // Regex syntax in a glob is literal.
    expect(matches({ tool: "run.terminal.command" })).toBe(false);
  });

  it("matches the source by package glob, mcp:<server>, or built-in", () => {
    expect(matches({ source: "built-in" })).toBe(true);
    expect(matches({ source: "built-in" }, call({ origin: "plugin", sourcePackage: "my-plugin" }))).toBe(false);
    expect(matches({ source: "mcp:*" }, call({ origin: "mcp", sourcePackage: "mcp:fabric" }))).toBe(true);
    expect(matches({ source: "mcp:*" }, call({ origin: "plugin", sourcePackage: "mcpish" }))).toBe(false);
    expect(matches({ source: "my-plugin" }, call({ origin: "plugin", sourcePackage: "my-plugin" }))).toBe(true);
  });

  it("matches the readonly flag", () => {
    expect(matches({ readonly: false })).toBe(true);
    expect(matches({ readonly: true })).toBe(false);
  });

  it("matches arguments by regex (searched) and by JSON Schema; a missing argument never matches", () => {
    const args = { command: "^(ls|git status)\\b" };
    expect(matches({ args })).toBe(true);
    expect(matches({ args }, call({ input: { command: "git status --short" } }))).toBe(true);
    expect(matches({ args }, call({ input: { command: "rm -rf / ; ls" } }))).toBe(false);
    expect(matches({ args }, call({ input: {} }))).toBe(false);
    expect(matches({ args: { n: { type: "integer", maximum: 10 } } }, call({ input: { n: 3 } }))).toBe(true);
    expect(matches({ args: { n: { type: "integer", maximum: 10 } } }, call({ input: { n: 30 } }))).toBe(false);
    // A non-string value is searched as its JSON.
    expect(matches({ args: { paths: '"secret' } }, call({ input: { paths: ["a", "secret.txt"] } }))).toBe(true);
  });

  it("refuses patterns that could backtrack, naming the field", () => {
    expect(() => rule({ args: { command: "(a)\\1" }, decision: "deny" })).toThrow(RuleError);
    expect(() => rule({ args: { command: "(?=x)" }, decision: "deny" })).toThrow(/args\.command/);
    expect(() => rule({ args: { command: { type: "string", pattern: "(a+)+$" } }, decision: "deny" })).toThrow(/"pattern" is not allowed/);
  });

  it("runs a catastrophic pattern in linear time", () => {
    const r = rule({ args: { command: "(a+)+$" }, decision: "deny" });
    // With a backtracking engine this input takes longer than the test's whole timeout.
    expect(r.matches(call({ input: { command: `${"a".repeat(5000)}!` } }))).toBe(false);
  });

  it("first matching rule wins, in the order given", () => {
    const rules = [
      rule({ tool: "reset_*", decision: "deny", reason: "the fabric is shared" }, "settings:a"),
      rule({ name: "reset allowed", tool: "reset_fabric", decision: "allow" }, "ui:b"),
      rule({ source: "mcp:*", readonly: false, decision: "ask" }, "settings:c"),
    ];
    const verdict = firstMatch(rules, call({ toolName: "reset_fabric" }));
    expect(verdict).toEqual({ decision: "deny", reason: "the fabric is shared", rule: { key: "settings:a", name: "deny reset_*", origin: "settings" } });
    expect(ruleDecisionText(verdict!)).toBe('denied by settings rule "deny reset_*": the fabric is shared');
    expect(firstMatch(rules, call({ toolName: "write", origin: "mcp", sourcePackage: "mcp:x" }))?.decision).toBe("ask");
    expect(firstMatch(rules, call({ toolName: "write", origin: "mcp", sourcePackage: "mcp:x", readonly: true }))).toBeUndefined();
  });
});

describe("broad allow rules (#28.8)", () => {
  const confirming = [{ toolName: "run_terminal_command", sourcePackage: "toolroom", origin: "builtin" as const, readonly: false }];
  const broad = (spec: Partial<RuleSpec>) => broadAllow({ decision: "allow", ...spec }, confirming);

  it("an allow that matches every tool is broad, however it is spelled", () => {
    for (const spec of <Partial<RuleSpec>[]>[
      {},
      { tool: "*" },
      { tool: "**", source: "*" },
      { readonly: false },
      { args: { command: ".*" } },
      { args: { path: {} } },
    ]) {
      expect(broad(spec), JSON.stringify(spec)).toMatch(/every tool/);
    }
  });

  it("an allow of every argument value of a confirming tool is broad; a pattern that restricts them is not", () => {
    expect(broad({ tool: "run_terminal_command" })).toMatch(/every call of run_terminal_command/);
    expect(broad({ tool: "run_*", args: { command: "" } })).toMatch(/every call of run_terminal_command/);
    expect(broad({ tool: "run_terminal_command", args: { command: "^ls$" } })).toBeUndefined();
    expect(broad({ tool: "run_terminal_command", args: { command: "^ls" } })).toBeUndefined();
  });

  it("a pattern that admits every real value is broad too: the empty command is no call anyone sends (red team)", () => {
    const typed = [{ ...confirming[0]!, inputSchema: { type: "object", properties: { command: { type: "string" } } } }];
    for (const command of [".", "\\S", "[^\\n]", "(?s).", { type: "string" }, { type: "string", minLength: 1 }])
      expect(broadAllow({ decision: "allow", tool: "run_terminal_command", args: { command } }, typed), JSON.stringify(command)).toMatch(
        /every call of run_terminal_command/,
      );
    for (const command of ["^ls$", "^(ls|git status)\\b", "^cat [a-z/.]+$", { enum: ["ls", "pwd"] }])
      expect(broadAllow({ decision: "allow", tool: "run_terminal_command", args: { command } }, typed), JSON.stringify(command)).toBeUndefined();
  });

  it("rules that cannot allow a confirming tool's every call are not broad", () => {
    expect(broad({ tool: "read_file" })).toBeUndefined();
    expect(broad({ source: "some-plugin" })).toBeUndefined();
    expect(broad({ readonly: true })).toBeUndefined();
    expect(broadAllow({ decision: "deny" }, confirming)).toBeUndefined();
    expect(broadAllow({ decision: "ask", tool: "run_terminal_command" }, confirming)).toBeUndefined();
  });
});
