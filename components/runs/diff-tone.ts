import type { DeltaTone } from "@/lib/artifacts/compare";

export { rateTone, timeTone, type DeltaTone } from "@/lib/artifacts/compare";

export const TONE_CLASS: Record<DeltaTone, string> = {
  worse: "text-denied",
  better: "text-green-700 dark:text-done",
  same: "text-muted",
  unknown: "text-muted",
};
