"use client";

import { CheckCircle2, CircleSlash, Clock, XCircle } from "lucide-react";
import { ElicitationAnswers } from "@/components/approvals/elicitation-answers";
import { cn } from "@/components/ui/cn";
import type { Outcome } from "./use-try-it";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";

function describe(r: Outcome): { label: string; tone: "done" | "error" | "pending"; text: string } {
  if (r.status === "done")
    return {
      label: r.isError ? (r.timedOut ? "timed out" : "error") : r.madeChanges ? "done · made changes" : "done",
      tone: r.isError ? "error" : "done",
      text: r.text,
    };
  if (r.status === "not-admitted")
    return { label: r.why === "denied" ? "denied · not run" : "approval timed out · not run", tone: r.why === "denied" ? "error" : "pending", text: r.text };
  return { label: "request failed", tone: "error", text: r.error };
}

/** The outcome of one call: the text the model would see, the raw response, and how long it took. */
export function ResultView({ result }: { result: Outcome }) {
  const d = describe(result);
  const Icon = d.tone === "done" ? CheckCircle2 : result.status === "not-admitted" ? (result.why === "denied" ? CircleSlash : Clock) : XCircle;
  const raw = result.status === "done" ? result.output : result;
  return (
    <section
      data-testid="try-it-result"
      data-status={result.status === "done" ? (result.isError ? "error" : "done") : result.status === "not-admitted" ? result.why : "error"}
      aria-live="polite"
      className={cn(
        "rounded-md border",
        d.tone === "done" && "border-done/40",
        d.tone === "error" && "border-denied/50 bg-denied/5",
        d.tone === "pending" && "border-pending/60 bg-pending/5",
      )}
    >
      <Tabs defaultValue="text">
        <div className="flex items-center gap-2 border-b border-border/70 px-3 py-1.5">
          <Icon
            size={14}
            aria-hidden
            className={cn(d.tone === "done" && "text-done", d.tone === "error" && "text-denied", d.tone === "pending" && "text-pending")}
          />
          <span
            className={cn(
              "text-xs font-medium",
              d.tone === "done" && "text-done",
              d.tone === "error" && "text-denied",
              d.tone === "pending" && "text-amber-700 dark:text-pending",
            )}
          >
            {d.label}
          </span>
          {result.status === "done" ? (
            <span className="font-mono text-xs text-muted tabular" data-testid="try-it-duration">
              {result.durationMs} ms
            </span>
          ) : null}
          <TabsList className="ml-auto" aria-label="Result view">
            <TabsTrigger value="text">Text</TabsTrigger>
            <TabsTrigger value="raw">Raw</TabsTrigger>
          </TabsList>
        </div>
        <TabsContent value="text">
          {result.status === "done" && result.elicitations?.length ? (
            <div className="border-b border-border/70 px-3 py-2">
              <div className="mb-1 text-[11px] font-medium tracking-wide text-muted uppercase">Asked you</div>
              <ElicitationAnswers elicitations={result.elicitations} />
            </div>
          ) : null}
          <pre
            data-testid="try-it-result-text"
            className={cn("max-h-96 overflow-auto p-3 font-mono text-xs leading-5 whitespace-pre-wrap break-words", d.tone === "error" && "text-denied")}
          >
            {d.text || "(empty result)"}
          </pre>
        </TabsContent>
        <TabsContent value="raw">
          <pre data-testid="try-it-result-raw" className="max-h-96 overflow-auto p-3 font-mono text-xs leading-5">
            {typeof raw === "string" ? JSON.stringify(raw) : JSON.stringify(raw, null, 2)}
          </pre>
        </TabsContent>
      </Tabs>
    </section>
  );
}
