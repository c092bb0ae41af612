import { describe, expect, it } from "vitest";
import { curlCommand, rawSegments } from "./raw-text";

describe("rawSegments", () => {
  it("cuts the reply into prose, the recognised call and a near-miss with its reason", () => {
    const text = 'Sure.\n<tool_call>{"name":"a"}</tool_call>\nthen ACTION: b(\n';
    const callEnd = text.indexOf("</tool_call>") + "</tool_call>".length;
    const missStart = text.indexOf("ACTION");
    const segments = rawSegments({
      text,
      toolInputs: [],
      calls: [{ start: 6, end: callEnd, toolName: "a" }],
      nearMisses: [{ raw: text.slice(missStart), error: "cut off", start: missStart, end: text.length }],
    });
    expect(segments.map((s) => s.kind)).toEqual(["plain", "call", "plain", "near-miss"]);
    expect(segments[1]?.text).toBe('<tool_call>{"name":"a"}</tool_call>');
    expect(segments[3]).toMatchObject({ reason: "cut off", text: "ACTION: b(\n" });
    expect(segments.map((s) => s.text).join("")).toBe(text);
  });

  it("skips a span that falls outside a cut text", () => {
    expect(rawSegments({ text: "abc", toolInputs: [], calls: [{ start: 1, end: 10 }], nearMisses: [] })).toEqual([{ text: "abc", kind: "plain" }]);
  });
});

describe("curlCommand", () => {
  it("posts the exact body to the provider, with the key left as a variable and quotes escaped", () => {
    const cmd = curlCommand({
      url: "http://127.0.0.1:1/v1/chat/completions",
      messages: [],
      body: { model: "m", messages: [{ role: "user", content: "it's" }] },
    });
    expect(cmd).toContain("curl -N 'http://127.0.0.1:1/v1/chat/completions'");
    expect(cmd).toContain('"authorization: Bearer $API_KEY"');
    expect(cmd).toContain(`it'\\''s`);
  });

  it("has nothing to offer for a model without an HTTP request", () => {
    expect(curlCommand({ messages: [] })).toBeUndefined();
  });
});
