import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { callDifferences, summarizeColumn, type ColumnCall } from "./compare-summary";

const call = (tool: string, args: Record<string, unknown> = {}): ColumnCall => ({
  tool,
  args: JSON.stringify(args),
  state: "output-available",
  isError: false,
});

describe("callDifferences", () => {
  it("finds nothing when every column made the same calls", () => {
    expect(callDifferences([[call("list_files", { path: "lib" })], [call("list_files", { path: "lib" })], [call("list_files", { path: "lib" })]])).toEqual([]);
  });

  it("reports a different tool at the same position and names the odd column", () => {
    const diffs = callDifferences([[call("grep_code", { pattern: "x" })], [call("grep_code", { pattern: "x" })], [call("search_code", { query: "x" })]]);
    expect(diffs).toEqual([{ kind: "different-tool", position: 0, tools: ["grep_code", "grep_code", "search_code"], columns: [2] }]);
  });

  it("reports the same tool with different arguments", () => {
    const diffs = callDifferences([[call("list_files", { path: "lib" })], [call("list_files", { path: "." })]]);
    expect(diffs).toEqual([{ kind: "different-arguments", position: 0, tool: "list_files", args: ['{"path":"lib"}', '{"path":"."}'], columns: [1] }]);
  });

  it("reports a column that missed a call the others made", () => {
    const diffs = callDifferences([
      [call("list_files"), call("read_file", { path: "a" })],
      [call("list_files")],
      [call("list_files"), call("read_file", { path: "a" })],
    ]);
    expect(diffs).toEqual([{ kind: "missed-call", position: 1, tool: "read_file", columns: [1] }]);
  });

  it("reports a column that made no call at all while another did", () => {
    expect(callDifferences([[call("list_files")], []])).toEqual([{ kind: "missed-call", position: 0, tool: "list_files", columns: [1] }]);
  });

  it("counts a missing call among differing tools as setting that column apart too", () => {
    const diffs = callDifferences([[call("grep_code")], [call("search_code")], []]);
    expect(diffs).toEqual([{ kind: "different-tool", position: 0, tools: ["grep_code", "search_code", null], columns: [1, 2] }]);
  });
});

describe("summarizeColumn", () => {
  const answer = (metadata: unknown, parts: UIMessage["parts"]): UIMessage => ({ id: "a", role: "assistant", metadata, parts });

  it("reads tools, arguments (key order ignored), steps and errors from stored parts, and leaves unrecorded numbers undefined", () => {
    const summary = summarizeColumn([
      { id: "u", role: "user", parts: [{ type: "text", text: "list files in lib" }] },
      answer({ error: "the model went silent" }, [
        { type: "step-start" },
        { type: "tool-list_files", toolCallId: "c1", state: "output-available", input: { path: "lib", depth: 1 }, output: "a.ts" },
        { type: "step-start" },
        { type: "tool-read_file", toolCallId: "c2", state: "output-available", input: { path: "nope" }, output: "Error: no such file" },
      ] as UIMessage["parts"]),
    ]);
    expect(summary.calls.map((c) => [c.tool, c.args, c.isError])).toEqual([
      ["list_files", '{"depth":1,"path":"lib"}', false],
      ["read_file", '{"path":"nope"}', true],
    ]);
    expect(summary.steps).toBe(2);
    expect(summary.errors).toEqual(["the model went silent", "read_file: Error: no such file"]);
    expect(summary.inputTokens).toBeUndefined();
    expect(summary.ttftMs).toBeUndefined();
    expect(summary.durationMs).toBeUndefined();
  });

  it("takes steps, tokens, TTFT and time from the turn trace when it is there", () => {
    const summary = summarizeColumn([
      answer({ turn: { steps: 2, durationMs: 120, ttftMs: 30, inputTokens: 100, outputTokens: 20 } }, [{ type: "step-start" }]),
      answer({ turn: { steps: 1, durationMs: 80, ttftMs: 25, inputTokens: 50, outputTokens: 5, cachedTokens: 10 } }, []),
    ]);
    expect(summary).toMatchObject({ steps: 3, durationMs: 200, ttftMs: 30, inputTokens: 150, outputTokens: 25, cachedTokens: 10 });
  });
});
