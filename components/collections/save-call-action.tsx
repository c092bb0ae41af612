"use client";

import { ListPlus } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { callNameFrom, draftCall, type DraftResult } from "@/lib/evals/collection-draft";
import { SaveCallDialog } from "./save-call-dialog";

/** Try it's "Save to collection": the current input, with an expectation drafted from the result shown (if any). */
export function SaveCallAction({ tool, input, result, disabled }: { tool: string; input: () => unknown; result: DraftResult | null; disabled?: boolean }) {
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <>
      <Button size="sm" variant="ghost" disabled={disabled} data-testid="save-call-open" onClick={() => setDraft(draftCall(tool, input(), result))}>
        <ListPlus size={14} aria-hidden /> Save to collection
      </Button>
      {draft !== null ? (
        <SaveCallDialog open draft={draft} suggestedFile={`collections/${callNameFrom(tool)}.calls.yaml`} onOpenChange={(open) => !open && setDraft(null)} />
      ) : null}
    </>
  );
}
