import { Cpu } from "lucide-react";
import type { TrialWorkers } from "@/lib/server/evals/eval-runs";

/**
 * On a team's PostgreSQL store: who takes queued trials. With no slot anywhere a queued eval would
 * wait forever, so that case says what to start.
 */
export function TrialWorkersLine({ workers }: { workers: TrialWorkers }) {
  const slots = workers.workerSlots + workers.webSlots;
  return (
    <p className="flex flex-wrap items-center gap-2 text-xs text-muted" data-testid="eval-workers" data-slots={slots}>
      <Cpu className="size-3.5" aria-hidden />
      <span>
        <span className="font-mono tabular text-fg">{workers.workers}</span> worker{workers.workers === 1 ? "" : "s"} connected (
        <span className="font-mono tabular">{workers.workerSlots}</span> trial slot{workers.workerSlots === 1 ? "" : "s"}), and{" "}
        <span className="font-mono tabular">{workers.webSlots}</span> slot{workers.webSlots === 1 ? "" : "s"} in the web instances
      </span>
      {slots === 0 ? (
        <span className="text-pending">
          — queued trials wait until one starts: <code className="font-mono">toolroom worker</code> on any machine with this DATABASE_URL.
        </span>
      ) : null}
    </p>
  );
}
