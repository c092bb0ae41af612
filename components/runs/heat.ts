import type { CellView } from "./types";

export type HeatMetric = "failure" | "error" | "ratio";

export const HEAT_METRICS: { id: HeatMetric; label: string }[] = [
  { id: "failure", label: "Failure rate" },
  { id: "error", label: "Error rate" },
  { id: "ratio", label: "Step-time ratio" },
];

export function heatValue(cell: CellView, metric: HeatMetric): number | null {
  if (metric === "failure") return cell.failureRate;
  if (metric === "error") return cell.errorRate;
  return cell.stepTimeRatio;
}

/** A step-time ratio this far from 1 gets the full colour. */
const RATIO_SPAN = 0.5;
/** Ratios closer to 1 than this read as "same as baseline". */
const RATIO_NEUTRAL = 0.02;

export type HeatShade =
  | { kind: "missing" }
  | { kind: "neutral" }
  /** `strength` in 0..1; "bad" is red (failing, slower), "good" green (clean, faster). */
  | { kind: "bad" | "good"; strength: number };

export function heatShade(value: number | null, metric: HeatMetric): HeatShade {
  if (value === null || !Number.isFinite(value)) return { kind: "missing" };
  if (metric === "ratio") {
    const d = value - 1;
    if (Math.abs(d) < RATIO_NEUTRAL) return { kind: "neutral" };
    return { kind: d > 0 ? "bad" : "good", strength: Math.min(1, Math.abs(d) / RATIO_SPAN) };
  }
  if (value <= 0) return { kind: "good", strength: 0.35 };
  return { kind: "bad", strength: Math.min(1, value) };
}

/**
 * A background mixed into the panel colour, so the same scale reads in light and dark themes.
 * Even the faintest non-zero failure gets 25%: "a little red" must not look like "clean".
 */
export function heatBackground(shade: HeatShade): string {
  if (shade.kind === "missing") return "transparent";
  if (shade.kind === "neutral") return "var(--subtle)";
  const base = shade.kind === "bad" ? "var(--color-denied)" : "var(--color-done)";
  const amount = shade.kind === "bad" ? 25 + Math.round(shade.strength * 65) : 15 + Math.round(shade.strength * 45);
  return `color-mix(in oklch, ${base} ${amount}%, var(--panel))`;
}

/** Whether text on the tile should be light: strong reds are too dark for the default text colour. */
export function heatTextLight(shade: HeatShade): boolean {
  return shade.kind === "bad" && shade.strength > 0.55;
}
