"use client";

import { Columns3, Repeat } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { ChatConfig } from "@/components/chat/use-chat-session";
import type { ModelChoice } from "@/lib/chat/models";
import { CompareDialog, type CompareSource } from "./compare-dialog";

export interface CompareActionsProps {
  chatId: string;
  chatExists: boolean;
  config: ChatConfig;
  models: ModelChoice[];
  disabled?: boolean;
}

/** The chat header's "Compare…" and "Replay in…": both open the comparison setup, seeded from this chat. */
export function CompareActions({ chatId, chatExists, config, models, disabled }: CompareActionsProps) {
  const [source, setSource] = useState<CompareSource | null>(null);
  const other = config.toolMode === "native" ? "text" : "native";
  // Seeded with this chat's model in both modes, the comparison Toolroom is for.
  const columns = [
    { modelRef: config.modelRef, toolMode: config.toolMode, textProtocol: config.textProtocol },
    { modelRef: config.modelRef, toolMode: other, textProtocol: config.textProtocol },
  ] as const;
  return (
    <>
      <Button size="sm" className="gap-1" data-testid="compare-open" disabled={disabled} onClick={() => setSource({ kind: "prompt" })}>
        <Columns3 size={12} aria-hidden /> Compare…
      </Button>
      {chatExists ? (
        <Button size="sm" className="gap-1" data-testid="replay-open" disabled={disabled} onClick={() => setSource({ kind: "replay", chatId })}>
          <Repeat size={12} aria-hidden /> Replay in…
        </Button>
      ) : null}
      {source ? (
        <CompareDialog
          open
          onOpenChange={(open) => !open && setSource(null)}
          source={source}
          models={models}
          initialColumns={columns.map((c) => ({ ...c }))}
          supervised={config.supervised}
        />
      ) : null}
    </>
  );
}
