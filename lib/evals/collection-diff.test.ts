import { describe, expect, it } from "vitest";
import { runChanges } from "./collection-diff";
import type { CallResult } from "./collection-run";

const result = (name: string, verdict: "pass" | "fail", text = "ok"): CallResult => ({
  name,
  tool: "t",
  input: {},
  verdict,
  outcome: "ran",
  text,
  isError: false,
  durationMs: 1,
  failures: [],
});

describe("a run against the one before", () => {
  it("names what broke, what was fixed, what changed its text, and what is new", () => {
    const before = [result("a", "pass"), result("b", "fail"), result("c", "pass", "words=1"), result("d", "pass")];
    const now = [result("a", "fail"), result("b", "pass"), result("c", "pass", "words=2"), result("d", "pass"), result("e", "pass")];
    expect(runChanges(now, before)).toEqual({ a: "broke", b: "fixed", c: "changed", d: "same", e: "new" });
  });

  it("with no run before, every call is new", () => {
    expect(runChanges([result("a", "pass")], undefined)).toEqual({ a: "new" });
  });
});
