import { cn } from "@/components/ui/cn";
import type { EvalRowFacts } from "@/components/runs/types";

/** An eval run's verdict: its pass rate (a run with failing cases is not simply "fail"). */
export function EvalPassRate({ facts }: { facts: EvalRowFacts }) {
  const all = facts.trials > 0 && facts.passed === facts.trials;
  return (
    <span
      className={cn(
        "font-mono text-xs tabular",
        all ? "text-green-700 dark:text-done" : facts.passed === 0 ? "text-denied" : "text-amber-700 dark:text-pending",
      )}
      title={`${facts.passed} of ${facts.trials} trials passed`}
      data-testid="eval-pass-rate"
    >
      {facts.trials ? `${Math.round((facts.passed / facts.trials) * 1000) / 10}% pass` : "no trials"}
    </span>
  );
}
