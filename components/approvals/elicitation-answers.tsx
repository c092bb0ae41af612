import { MessageSquareText } from "lucide-react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { CallElicitation } from "@/lib/chat/metadata";

const ACTION: Record<CallElicitation["action"], { label: string; tone: BadgeTone }> = {
  accept: { label: "sent", tone: "done" },
  decline: { label: "declined", tone: "denied" },
  cancel: { label: "cancelled", tone: "neutral" },
  "not-admitted": { label: "not asked", tone: "denied" },
};

const BY: Record<CallElicitation["by"], string> = {
  user: "",
  client: "the MCP client answered, not its person",
  timeout: "nobody answered in time",
  aborted: "the call was stopped",
  unsupervised: "unsupervised: nobody to ask",
};

/** The questions a call's tool asked the person and how each was answered (tool card, trace). */
export function ElicitationAnswers({ elicitations }: { elicitations: CallElicitation[] }) {
  return (
    <ul className="space-y-1" data-testid="call-elicitations">
      {elicitations.map((e, i) => (
        <li key={`${e.at}-${i}`} className="rounded bg-subtle px-2 py-1 text-xs" data-testid="call-elicitation" data-action={e.action}>
          <div className="flex items-start gap-1.5">
            <MessageSquareText size={12} className="mt-0.5 shrink-0 text-muted" aria-hidden />
            <span className="min-w-0 flex-1 break-words">{e.message}</span>
            <Badge tone={ACTION[e.action].tone}>{ACTION[e.action].label}</Badge>
          </div>
          {BY[e.by] ? (
            <div className="mt-0.5 pl-[18px] text-muted">
              {BY[e.by]}
              {e.by === "client" && e.reason ? `: ${e.reason}` : ""}
            </div>
          ) : null}
          {e.content && Object.keys(e.content).length ? (
            <pre className="mt-0.5 overflow-x-auto pl-[18px] font-mono text-[11px]" data-testid="call-elicitation-content">
              {JSON.stringify(e.content)}
            </pre>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
