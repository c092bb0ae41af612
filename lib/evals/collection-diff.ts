import type { CallResult } from "./collection-run";

/**
 * How a call fared against the run before: `broke` (passed then, fails now), `fixed`, `changed`
 * (same verdict, different text), `same`, or `new` (the run before had no call of that name).
 */
export type CallChange = "broke" | "fixed" | "changed" | "same" | "new";

export function callChange(now: CallResult, before: CallResult | undefined): CallChange {
  if (!before) return "new";
  if (before.verdict === "pass" && now.verdict === "fail") return "broke";
  if (before.verdict === "fail" && now.verdict === "pass") return "fixed";
  return before.text === now.text && before.outcome === now.outcome ? "same" : "changed";
}

/** Each call of `now` by name, against the same-named call of `before`. */
export function runChanges(now: readonly CallResult[], before: readonly CallResult[] | undefined): Record<string, CallChange> {
  const earlier = new Map((before ?? []).map((r) => [r.name, r]));
  return Object.fromEntries(now.map((r) => [r.name, callChange(r, before ? earlier.get(r.name) : undefined)]));
}
