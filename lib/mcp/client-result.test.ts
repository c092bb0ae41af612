import { describe, expect, it } from "vitest";
import { callResultText } from "./client-result";

describe("callResultText", () => {
  it("joins text parts and summarizes binary ones", () => {
    const text = callResultText({
      content: [
        { type: "text", text: "a" },
        { type: "audio", data: "AAAA", mimeType: "audio/wav" },
        { type: "resource_link", uri: "file:///x.csv", name: "x.csv", mimeType: "text/csv" },
        { type: "resource", resource: { uri: "file:///y.bin", blob: Buffer.alloc(3000).toString("base64") } },
        { type: "text", text: "b" },
      ],
    });
    expect(text).toBe("a\n[audio: audio/wav, 3 B]\n[resource link: x.csv <file:///x.csv> (text/csv)]\n[resource: file:///y.bin, 2.9 KB]\nb");
  });

  it("falls back to structured content, then to the old toolResult shape", () => {
    expect(callResultText({ content: [], structuredContent: { sum: 3 } })).toBe('{\n  "sum": 3\n}');
    expect(callResultText({ toolResult: "plain" })).toBe("plain");
    expect(callResultText({ toolResult: { n: 1 } })).toBe('{\n  "n": 1\n}');
  });

  it("makes isError results Error: texts, once", () => {
    expect(callResultText({ content: [{ type: "text", text: "no such file" }], isError: true })).toBe("Error: no such file");
    expect(callResultText({ content: [{ type: "text", text: "Error: already said" }], isError: true })).toBe("Error: already said");
    expect(callResultText({ content: [], isError: true })).toBe("Error: the tool reported an error without a message");
    expect(callResultText({ content: [{ type: "text", text: "Error: but not flagged" }] })).toBe("Error: but not flagged");
  });
});
