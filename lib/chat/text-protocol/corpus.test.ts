import { describe, expect, it } from "vitest";
import { CORPUS, type Expected } from "@/lib/testing/text-protocol-corpus";
import { parseChunks } from "@/lib/testing/text-protocol-chunks";
import { TEXT_PROTOCOLS, type ParseEvent } from "./types";

/** The parse as the corpus writes it: errors by a phrase they must contain. */
function matches(events: ParseEvent[], expected: Expected[]): void {
  expect(events.map((e) => e.type)).toEqual(expected.map((e) => ("text" in e ? "text" : "call" in e ? "call" : "malformed")));
  expected.forEach((want, i) => {
    const got = events[i];
    if ("text" in want) expect(got).toEqual({ type: "text", text: want.text });
    else if ("call" in want) {
      expect(got).toMatchObject({ type: "call", toolName: want.call, input: want.input });
      expect(got?.type === "call" ? got.repaired : undefined).toBe(want.repaired);
    } else {
      expect(got?.type).toBe("malformed");
      if (got?.type !== "malformed") return;
      expect(got.error).toContain(want.malformed);
      expect(got.toolName).toBe(want.toolName);
    }
  });
}

it("holds at least 120 replies, covering every protocol", () => {
  expect(CORPUS.length).toBeGreaterThanOrEqual(120);
  for (const protocol of TEXT_PROTOCOLS) expect(CORPUS.filter((c) => c.protocol === protocol).length, protocol).toBeGreaterThanOrEqual(9);
  expect(new Set(CORPUS.map((c) => `${c.protocol}: ${c.name}`)).size).toBe(CORPUS.length);
});

describe.each(CORPUS.map((c) => [`${c.protocol}: ${c.name}`, c] as const))("%s", (_, { protocol, reply, expected }) => {
  it("parses whole", () => {
    matches(parseChunks(protocol, [reply]).events, expected);
  });

  it("parses the same split at every chunk boundary, and one character at a time", () => {
    const whole = parseChunks(protocol, [reply]).events;
    for (let i = 1; i < reply.length; i++) expect(parseChunks(protocol, [reply.slice(0, i), reply.slice(i)]).events, `split at ${i}`).toEqual(whole);
    expect(parseChunks(protocol, [...reply]).events).toEqual(whole);
  });
});
