/** Verdicts come from three producers (matrix, sanitizer report, dashboard gate); one tone each. */
export type VerdictTone = "pass" | "fail" | "warn" | "unknown";

const TONES: Record<string, VerdictTone> = {
  pass: "pass",
  passed: "pass",
  ok: "pass",
  clean: "pass",
  fail: "fail",
  failed: "fail",
  error: "fail",
  errored: "fail",
  warn: "warn",
  warning: "warn",
};

export function verdictTone(verdict: string | null | undefined): VerdictTone {
  if (!verdict) return "unknown";
  return TONES[verdict.toLowerCase()] ?? "unknown";
}

/** Sort order for the verdict column: worst first. */
export function verdictRank(verdict: string | null | undefined): number {
  const v = verdict?.toLowerCase();
  if (v === "error") return 0;
  if (v === "fail" || v === "failed") return 1;
  if (verdictTone(v) === "warn") return 2;
  if (verdictTone(v) === "unknown") return 3;
  return 4;
}
