import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { checkCall } from "./collection-expect";
import { draftCall, draftExpect, type DraftResult } from "./collection-draft";
import { savedCallSchema } from "./collection-schema";

const done = (text: string, output: unknown = text, isError = false): DraftResult => ({ status: "done", text, output, isError, durationMs: 3 });

describe("the expectation drafted from a try-it result", () => {
  it("expects JSON objects by json, short text whole, long text by its first line, errors and refusals as such", () => {
    expect(draftExpect(done('{"a":1}'))).toEqual({ json: { a: 1 } });
    expect(draftExpect(done("words=2 lines=1 chars=9\n"))).toEqual({ equals: "words=2 lines=1 chars=9" });
    expect(draftExpect(done(`first line\n${"x".repeat(300)}`))).toEqual({ contains: "first line" });
    expect(draftExpect(done("Error: no such file", "Error: no such file", true))).toEqual({ error: true, contains: "Error: no such file" });
    expect(draftExpect({ status: "not-admitted", text: "Not written" })).toEqual({ notAdmitted: true });
  });

  it("is a call the collection schema accepts, and the result it came from passes it", () => {
    const results: [DraftResult, Parameters<typeof checkCall>[1]][] = [
      [done('{"a":{"b":[1,2]}}'), { outcome: "ran", text: '{"a":{"b":[1,2]}}', output: '{"a":{"b":[1,2]}}', isError: false, durationMs: 3 }],
      [done("Error: gone", "Error: gone", true), { outcome: "ran", text: "Error: gone", output: "Error: gone", isError: true, durationMs: 3 }],
      [
        { status: "not-admitted", text: "Not run" },
        { outcome: "not-admitted", text: "Not run", output: "Not run", isError: false, durationMs: 0 },
      ],
    ];
    for (const [result, seen] of results) {
      const call = savedCallSchema.parse(parse(draftCall("sample_word_count", { text: "a b" }, result)));
      expect(call).toMatchObject({ name: "sample_word_count", tool: "sample_word_count", input: { text: "a b" } });
      expect(checkCall(call.expect, seen)).toEqual([]);
    }
  });
});
