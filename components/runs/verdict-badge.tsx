import { cn } from "@/components/ui/cn";
import { verdictTone, type VerdictTone } from "./verdict";

const STYLES: Record<VerdictTone, string> = {
  pass: "border-done/40 bg-done/10 text-green-700 dark:text-done",
  fail: "border-denied/40 bg-denied/10 text-denied",
  warn: "border-pending/50 bg-pending/10 text-amber-700 dark:text-pending",
  unknown: "border-border bg-subtle text-muted",
};

export function VerdictBadge({ verdict, className }: { verdict: string | null; className?: string }) {
  const tone = verdictTone(verdict);
  return (
    <span
      data-testid="verdict-badge"
      data-tone={tone}
      className={cn("inline-flex items-center rounded border px-1.5 py-px font-mono text-[11px] leading-4 whitespace-nowrap", STYLES[tone], className)}
    >
      {verdict ?? "unknown"}
    </span>
  );
}

/** A small neutral or warning tag (partial env, unreliable, baseline). */
export function Tag({ children, tone = "neutral", title, testId }: { children: React.ReactNode; tone?: "neutral" | "warn" | "fail" | "accent"; title?: string; testId?: string }) {
  const styles = {
    neutral: "border-border text-muted",
    warn: "border-pending/50 text-amber-700 dark:text-pending",
    fail: "border-denied/40 text-denied",
    accent: "border-accent/40 text-accent",
  } as const;
  return (
    <span title={title} data-testid={testId} className={cn("inline-flex items-center rounded border px-1 text-[10.5px] leading-4 whitespace-nowrap", styles[tone])}>
      {children}
    </span>
  );
}
