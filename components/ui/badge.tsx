import type { ComponentProps } from "react";
import { cn } from "./cn";

/** The state colours, the same everywhere: pending amber, denied red, done green, running blue. */
const TONES = {
  neutral: "border-border text-muted",
  accent: "border-accent/40 text-accent",
  done: "border-done/40 text-done",
  denied: "border-denied/40 text-denied",
  pending: "border-pending/50 text-amber-700 dark:text-pending",
  running: "border-running/40 text-running",
  violet: "border-violet-500/40 text-violet-600 dark:text-violet-400",
} as const;

export type BadgeTone = keyof typeof TONES;

/** A small bordered label: a tool's origin, a verdict, a state. */
export function Badge({ tone = "neutral", className, ...props }: ComponentProps<"span"> & { tone?: BadgeTone }) {
  return (
    <span className={cn("inline-flex items-center rounded border px-1.5 py-px text-[11px] leading-4 whitespace-nowrap", TONES[tone], className)} {...props} />
  );
}
