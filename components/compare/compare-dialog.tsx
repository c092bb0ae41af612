"use client";

import { Plus, X } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "@/components/ui/dialog";
import { SegmentedRadioGroup, SegmentedRadioItem } from "@/components/ui/radio-group";
import { Select } from "@/components/ui/select";
import type { ModelChoice } from "@/lib/chat/models";
import { TEXT_PROTOCOLS } from "@/lib/chat/text-protocol/types";
import { fetchJson } from "@/lib/client/fetch-json";
import type { CompareColumn, CompareRequest } from "@/lib/server/compare/compare-request";
import type { ComparisonSummaryJson } from "@/lib/server/compare/compare-service";
import { columnLetter } from "./column-letter";

const MIN_COLUMNS = 2;
const MAX_COLUMNS = 4;

/** What the comparison sends: a prompt typed here, or a stored chat's user messages. */
export type CompareSource = { kind: "prompt"; initialPrompt?: string } | { kind: "replay"; chatId: string };

export interface CompareDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  source: CompareSource;
  models: ModelChoice[];
  initialColumns: CompareColumn[];
  supervised: boolean;
}

/** Sets up a comparison: 2-4 (model, tool mode, protocol) columns, then opens it. */
export function CompareDialog({ open, onOpenChange, source, models, initialColumns, supervised }: CompareDialogProps) {
  const router = useRouter();
  const [prompt, setPrompt] = useState(source.kind === "prompt" ? (source.initialPrompt ?? "") : "");
  const [replayAll, setReplayAll] = useState(false);
  const [columns, setColumns] = useState(initialColumns);
  const [busy, setBusy] = useState(false);

  const change = (index: number, patch: Partial<CompareColumn>) => setColumns((cs) => cs.map((c, i) => (i === index ? { ...c, ...patch } : c)));
  const canStart = !busy && (source.kind === "replay" || prompt.trim().length > 0);

  const start = async () => {
    setBusy(true);
    const body: CompareRequest = {
      columns: columns.map((c) => (c.toolMode === "text" ? c : { modelRef: c.modelRef, toolMode: c.toolMode })),
      supervised,
      ...(source.kind === "replay" ? { replay: { chatId: source.chatId, messages: replayAll ? "all" : "first" } } : { prompts: [prompt.trim()] }),
    };
    try {
      const { comparison } = await fetchJson<{ comparison: ComparisonSummaryJson }>("/api/compare", { method: "POST", json: body });
      onOpenChange(false);
      router.push(`/compare/${comparison.id}`);
    } catch (error) {
      toast.error(`Could not start the comparison: ${(error as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="compare-dialog" className="w-[min(640px,calc(100vw-2rem))]">
        <DialogTitle>{source.kind === "replay" ? "Replay in…" : "Compare…"}</DialogTitle>
        <DialogDescription>
          {source.kind === "replay"
            ? "Runs this chat's messages again in each column, as new chats side by side."
            : "Sends one prompt to each column at once; every column is a chat of its own."}
        </DialogDescription>
        <form
          className="mt-4 flex flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            if (canStart) void start();
          }}
        >
          {source.kind === "prompt" ? (
            <label className="flex flex-col gap-1 text-xs font-medium text-muted">
              Prompt
              <textarea
                value={prompt}
                onChange={(e) => setPrompt(e.target.value)}
                data-testid="compare-prompt"
                rows={3}
                autoFocus
                className="rounded-md border border-border bg-panel px-2 py-1.5 text-sm font-normal text-fg focus:border-accent focus:outline-none"
                placeholder="list files in lib"
              />
            </label>
          ) : (
            <fieldset className="flex flex-col gap-1 text-sm">
              <legend className="mb-1 text-xs font-medium text-muted">Messages to send</legend>
              <label className="flex items-center gap-2">
                <input type="radio" name="replay" checked={!replayAll} onChange={() => setReplayAll(false)} data-testid="replay-first" />
                the first user message
              </label>
              <label className="flex items-center gap-2">
                <input type="radio" name="replay" checked={replayAll} onChange={() => setReplayAll(true)} data-testid="replay-all" />
                every user message, one after another
              </label>
            </fieldset>
          )}
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-xs font-medium text-muted">Columns</legend>
            {columns.map((column, index) => (
              <div key={index} className="flex flex-wrap items-center gap-2" data-testid="compare-column-row">
                <span className="w-4 font-mono text-xs text-muted">{columnLetter(index)}</span>
                <Select
                  size="sm"
                  aria-label={`Column ${columnLetter(index)} model`}
                  data-testid={`compare-model-${index}`}
                  value={column.modelRef}
                  onChange={(e) => change(index, { modelRef: e.target.value })}
                  className="max-w-64 min-w-0 flex-1"
                >
                  {models.map((m) => (
                    <option key={m.ref} value={m.ref}>
                      {m.label}
                    </option>
                  ))}
                </Select>
                <SegmentedRadioGroup
                  aria-label={`Column ${columnLetter(index)} tool mode`}
                  value={column.toolMode}
                  onValueChange={(mode) => change(index, { toolMode: mode as CompareColumn["toolMode"] })}
                >
                  {(["native", "text"] as const).map((mode) => (
                    <SegmentedRadioItem key={mode} value={mode} data-testid={`compare-mode-${index}-${mode}`}>
                      {mode}
                    </SegmentedRadioItem>
                  ))}
                </SegmentedRadioGroup>
                <Select
                  size="sm"
                  aria-label={`Column ${columnLetter(index)} text protocol`}
                  data-testid={`compare-protocol-${index}`}
                  disabled={column.toolMode !== "text"}
                  value={column.textProtocol ?? "json"}
                  onChange={(e) => change(index, { textProtocol: e.target.value as CompareColumn["textProtocol"] })}
                >
                  {TEXT_PROTOCOLS.map((p) => (
                    <option key={p} value={p}>
                      {p}
                    </option>
                  ))}
                </Select>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove column ${columnLetter(index)}`}
                  disabled={columns.length <= MIN_COLUMNS}
                  onClick={() => setColumns((cs) => cs.filter((_, i) => i !== index))}
                >
                  <X size={14} />
                </Button>
              </div>
            ))}
            {columns.length < MAX_COLUMNS ? (
              <Button
                size="sm"
                className="self-start"
                data-testid="compare-add-column"
                onClick={() => setColumns((cs) => [...cs, cs.at(-1) ?? { modelRef: models[0]?.ref ?? "offline", toolMode: "native" }])}
              >
                <Plus size={12} aria-hidden /> Add column
              </Button>
            ) : null}
          </fieldset>
          <div className="flex justify-end gap-2">
            <Button onClick={() => onOpenChange(false)}>Cancel</Button>
            <Button type="submit" variant="primary" disabled={!canStart} data-testid="compare-start">
              {busy ? "Starting…" : `Compare in ${columns.length} columns`}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
