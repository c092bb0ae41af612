/** Whether a change is worse, better or the same; more failures and slower steps are worse. */
export type DeltaTone = "worse" | "better" | "same" | "unknown";

/** Failure-rate deltas below half a percentage point are noise at typical trial counts. */
const RATE_EPSILON = 0.005;
/** Step-time changes within 2% of A are noise. */
const TIME_EPSILON = 0.02;

export function rateTone(delta: number | null): DeltaTone {
  if (delta === null || !Number.isFinite(delta)) return "unknown";
  if (Math.abs(delta) < RATE_EPSILON) return "same";
  return delta > 0 ? "worse" : "better";
}

/** `ratio` is B ÷ A of the mean step time. */
export function timeTone(ratio: number | null): DeltaTone {
  if (ratio === null || !Number.isFinite(ratio)) return "unknown";
  if (Math.abs(ratio - 1) < TIME_EPSILON) return "same";
  return ratio > 1 ? "worse" : "better";
}

export const TONE_CLASS: Record<DeltaTone, string> = {
  worse: "text-denied",
  better: "text-green-700 dark:text-done",
  same: "text-muted",
  unknown: "text-muted",
};
