import { Badge } from "@/components/ui/badge";
import type { SourceSummary } from "@/lib/server/sources/sources-view";

const TONE = { connected: "done", failed: "denied", stopped: "pending" } as const;

export function StateBadge({ state }: { state: SourceSummary["state"] }) {
  return (
    <Badge tone={TONE[state]} data-testid="source-state">
      {state}
    </Badge>
  );
}
