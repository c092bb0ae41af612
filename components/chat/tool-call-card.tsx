"use client";

import { ChevronRight, FilePen } from "lucide-react";
import { useState } from "react";
import { cn } from "@/components/ui/cn";
import { Badge } from "@/components/ui/badge";
import { ElicitationAnswers } from "@/components/approvals/elicitation-answers";
import type { CallMeta } from "@/lib/chat/metadata";
import { RunningCallStatus } from "./running-call";
import { toolNameOf } from "@/lib/chat/history";
import { GUARD_FILE_EXPLAINED } from "@/lib/tools/guard-file-text";
import { callStatus, type CallTone, type ToolPart } from "./call-status";
import { Button } from "@/components/ui/button";

const TONES: Record<CallTone, string> = {
  pending: "border-pending/60 bg-amber-50/50 dark:bg-amber-950/15",
  running: "border-running/50",
  done: "border-border",
  error: "border-denied/50",
  denied: "border-denied/50",
};
const DOT: Record<CallTone, string> = { pending: "bg-pending", running: "bg-running animate-pulse", done: "bg-done", error: "bg-denied", denied: "bg-denied" };
const PREVIEW_CHARS = 1500;

function outputText(part: ToolPart): string | undefined {
  if (part.state === "output-available") return typeof part.output === "string" ? part.output : JSON.stringify(part.output, null, 2);
  if (part.state === "output-error") return part.errorText;
  if (part.state === "output-denied") return part.approval?.reason;
  return undefined;
}

/**
 * A denied call's text is either the person's own reason (the model gets the tool's not-admitted
 * text built from it) or that not-admitted text itself (unsupervised, MCP sessions).
 */
function outputLabel(part: ToolPart, meta: CallMeta | undefined): string {
  if (part.state !== "output-denied") return "Result";
  return meta?.decision?.by === "user" && part.approval?.reason === meta.decision.reason ? "Reason given" : "Not-admitted result";
}

interface ToolCallCardProps {
  part: ToolPart;
  meta: CallMeta | undefined;
  sourcePackage?: string;
  /** The tool mode (and text protocol) the call was made in, e.g. "text · json". */
  mode?: string;
}

export function ToolCallCard({ part, meta, sourcePackage, mode }: ToolCallCardProps) {
  const status = callStatus(part, meta);
  const [open, setOpen] = useState(status.tone !== "done");
  const [showAll, setShowAll] = useState(false);
  const name = toolNameOf(part);
  const output = outputText(part);
  const long = (output?.length ?? 0) > PREVIEW_CHARS;
  return (
    <div data-testid="tool-call" data-tool={name} data-state={part.state} className={cn("my-2 rounded-md border bg-panel text-sm", TONES[status.tone])}>
      <Button
        variant="plain"
        size="bare"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        className="flex w-full items-center gap-2 px-3 py-1.5 text-left"
      >
        <ChevronRight size={14} className={cn("shrink-0 text-muted transition-transform", open && "rotate-90")} aria-hidden />
        <span className={cn("size-2 shrink-0 rounded-full", DOT[status.tone])} aria-hidden />
        <span className="font-mono font-medium">{name}</span>
        <span className="truncate font-mono text-xs text-muted">[{meta?.sourcePackage ?? sourcePackage ?? "?"}]</span>
        {mode ? (
          <span
            data-testid="tool-call-mode"
            title={mode.startsWith("text") ? "Text mode: the call was parsed out of the model's text" : "Native function calling"}
            className={cn(
              "shrink-0 rounded border px-1 font-mono text-[11px]",
              mode.startsWith("text") ? "border-accent/40 text-accent" : "border-border text-muted",
            )}
          >
            {mode}
          </span>
        ) : null}
        {meta?.madeChanges ? (
          <span
            data-testid="changed-files"
            title={GUARD_FILE_EXPLAINED}
            className="inline-flex items-center gap-1 rounded border border-accent/40 px-1 text-[11px] text-accent"
          >
            <FilePen size={11} aria-hidden /> changed files
          </span>
        ) : null}
        {meta?.repaired ? (
          <Badge data-testid="call-repaired" title="Text mode read this call after fixing a near-miss in how it was written">
            repaired: {meta.repaired}
          </Badge>
        ) : null}
        <span className="ml-auto flex items-center gap-2 text-xs">
          {meta?.durationMs !== undefined ? <span className="text-muted tabular">{meta.durationMs} ms</span> : null}
          <span
            data-testid="tool-call-status"
            className={cn(
              status.tone === "denied" || status.tone === "error"
                ? "text-denied"
                : status.tone === "pending"
                  ? "text-amber-700 dark:text-pending"
                  : status.tone === "done"
                    ? "text-done"
                    : "text-running",
            )}
          >
            {status.label}
          </span>
          {meta?.decision?.user ? (
            <span data-testid="decided-by" className="text-muted" title="Who decided this call">
              by {meta.decision.user}
            </span>
          ) : null}
        </span>
      </Button>
      {open ? (
        <div className="space-y-2 border-t border-border px-3 py-2">
          <div>
            <div className="text-[11px] font-medium tracking-wide text-muted uppercase">
              Arguments
              {meta?.edited ? (
                <span data-testid="edited-by-you" className="ml-2 rounded border border-accent/40 px-1 text-accent normal-case">
                  edited by you
                </span>
              ) : null}
            </div>
            <pre data-testid="tool-call-input" className="mt-0.5 overflow-x-auto rounded bg-subtle p-2 font-mono text-xs">
              {JSON.stringify((meta?.edited ? meta.edited.input : part.input) ?? {}, null, 2)}
            </pre>
          </div>
          {meta?.edited ? (
            <div>
              <div className="text-[11px] font-medium tracking-wide text-muted uppercase">Proposed by the model</div>
              <pre data-testid="tool-call-original-input" className="mt-0.5 overflow-x-auto rounded bg-subtle p-2 font-mono text-xs text-muted line-through">
                {JSON.stringify(meta.edited.proposed, null, 2)}
              </pre>
            </div>
          ) : null}
          {meta?.elicitations?.length ? (
            <div>
              <div className="text-[11px] font-medium tracking-wide text-muted uppercase">Asked you</div>
              <div className="mt-0.5">
                <ElicitationAnswers elicitations={meta.elicitations} />
              </div>
            </div>
          ) : null}
          {output !== undefined ? (
            <div>
              <div className="text-[11px] font-medium tracking-wide text-muted uppercase">{outputLabel(part, meta)}</div>
              <pre
                data-testid="tool-call-output"
                className={cn(
                  "mt-0.5 max-h-96 overflow-auto rounded bg-subtle p-2 font-mono text-xs whitespace-pre-wrap",
                  status.tone === "error" && "text-denied",
                )}
              >
                {long && !showAll ? `${output.slice(0, PREVIEW_CHARS)}\n…` : output}
              </pre>
              {long ? (
                <Button variant="link" size="bare" className="mt-1 text-xs" onClick={() => setShowAll((s) => !s)}>
                  {showAll ? "show less" : `show all (${output.length.toLocaleString()} chars)`}
                </Button>
              ) : null}
            </div>
          ) : null}
        </div>
      ) : null}
      {part.state === "input-available" || (part.state === "approval-responded" && part.approval?.approved) ? (
        <RunningCallStatus toolCallId={part.toolCallId} />
      ) : null}
      {meta?.media?.length ? (
        <div className="flex flex-wrap items-end gap-2 border-t border-border px-3 py-2" data-testid="tool-call-media">
          {meta.media.map((m, i) =>
            m.type === "image" ? (
              // eslint-disable-next-line @next/next/no-img-element -- the tool's own bytes as a data: URL, nothing to optimise
              <img
                key={i}
                data-testid="tool-call-image"
                src={`data:${m.mimeType};base64,${m.data}`}
                alt={`image ${i + 1} from ${name}`}
                className="max-h-64 max-w-full rounded border border-border bg-subtle"
              />
            ) : (
              <audio key={i} data-testid="tool-call-audio" controls src={`data:${m.mimeType};base64,${m.data}`} />
            ),
          )}
        </div>
      ) : null}
    </div>
  );
}
