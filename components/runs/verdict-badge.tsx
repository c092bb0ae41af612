import { cn } from "@/components/ui/cn";
import { verdictTone, type VerdictTone } from "./verdict";
import { Badge, type BadgeTone } from "@/components/ui/badge";

const TONES: Record<VerdictTone, { tone: BadgeTone; className: string }> = {
  pass: { tone: "done", className: "bg-done/10 text-green-700 dark:text-done" },
  fail: { tone: "denied", className: "bg-denied/10" },
  warn: { tone: "pending", className: "bg-pending/10" },
  unknown: { tone: "neutral", className: "bg-subtle" },
};

export function VerdictBadge({ verdict, className }: { verdict: string | null; className?: string }) {
  const tone = verdictTone(verdict);
  return (
    <Badge tone={TONES[tone].tone} data-testid="verdict-badge" data-tone={tone} className={cn("font-mono", TONES[tone].className, className)}>
      {verdict ?? "unknown"}
    </Badge>
  );
}

/** A small neutral or warning tag (partial env, unreliable, baseline). */
export function Tag({
  children,
  tone = "neutral",
  title,
  testId,
}: {
  children: React.ReactNode;
  tone?: "neutral" | "warn" | "fail" | "accent";
  title?: string;
  testId?: string;
}) {
  const tones = { neutral: "neutral", warn: "pending", fail: "denied", accent: "accent" } as const;
  return (
    <Badge tone={tones[tone]} title={title} data-testid={testId} className="px-1 py-0 text-[10.5px]">
      {children}
    </Badge>
  );
}
