"use client";

import { useQuery } from "@tanstack/react-query";
import { Activity, MessageSquare, ScrollText, X } from "lucide-react";
import Link from "next/link";
import { Fragment, useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Skeleton } from "@/components/ui/skeleton";
import { VerdictBadge } from "@/components/runs/verdict-badge";
import type { CallRow, EvalCaseDetail } from "@/components/runs/types";
import { fetchJson } from "@/lib/client/fetch-json";
import { TrialTranscript } from "./trial-transcript";

const STATUS: Record<CallRow["status"], { label: string; tone: string }> = {
  match: { label: "match", tone: "text-green-700 dark:text-done" },
  "wrong-value": { label: "wrong value", tone: "text-denied" },
  "wrong-tool": { label: "wrong tool", tone: "text-denied" },
  "out-of-order": { label: "out of order", tone: "text-denied" },
  missing: { label: "missing", tone: "text-denied" },
  extra: { label: "extra", tone: "text-denied" },
  unexpected: { label: "not expected (allowed)", tone: "text-muted" },
};

const ARG_TONE = { match: "", missing: "text-denied", wrong: "text-denied", extra: "text-denied" } as const;

function CallDiff({ rows }: { rows: CallRow[] }) {
  if (rows.length === 0) return <p className="text-xs text-muted">No call was expected and none was made.</p>;
  return (
    <table className="w-full border-collapse font-mono text-xs" data-testid="call-diff">
      <thead>
        <tr className="border-b border-border text-left text-muted">
          <th className="py-1 pr-3 font-normal">status</th>
          <th className="py-1 pr-3 font-normal">argument</th>
          <th className="py-1 pr-3 font-normal">expected</th>
          <th className="py-1 font-normal">actual</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <Fragment key={i}>
            <tr className="border-t border-border/60 bg-subtle/40" data-testid="diff-call" data-status={r.status}>
              <td className={cn("py-1 pr-3 font-medium", STATUS[r.status].tone)}>{STATUS[r.status].label}</td>
              <td className="py-1 pr-3 text-muted">tool</td>
              <td className="py-1 pr-3">{r.expectedTool ?? <span className="text-muted">—</span>}</td>
              <td className="py-1">
                {r.actualTool ? (
                  <>
                    {r.actualTool}{" "}
                    <span className="text-muted">
                      (call {r.position}, {r.outcome})
                    </span>
                  </>
                ) : (
                  <span className="text-muted">no call</span>
                )}
                {r.why ? <div className="text-[11px] text-muted">{r.why}</div> : null}
              </td>
            </tr>
            {r.args.map((a) => (
              <tr key={`arg-${i}-${a.key}`} data-testid="diff-arg" data-status={a.status}>
                <td className={cn("py-0.5 pr-3 pl-3 text-[11px]", ARG_TONE[a.status])}>{a.status === "match" ? "" : a.status}</td>
                <td className="py-0.5 pr-3">{a.key}</td>
                <td className="py-0.5 pr-3 break-all">{a.expected ?? <span className="text-muted">not listed</span>}</td>
                <td className={cn("py-0.5 break-all", ARG_TONE[a.status])}>
                  {a.actual ?? <span className="text-muted">absent</span>}
                  {a.why ? <div className="text-[11px] text-muted">{a.why}</div> : null}
                </td>
              </tr>
            ))}
          </Fragment>
        ))}
      </tbody>
    </table>
  );
}

type TrialDetail = EvalCaseDetail["trials"][number];

/**
 * Where a trial can be read in full: its stored chat and trace (a run from /evals), else the
 * transcript its run folder keeps (a CLI run), opened below the trial.
 */
function TrialLinks({ t, transcriptOpen, onTranscript }: { t: TrialDetail; transcriptOpen: boolean; onTranscript: () => void }) {
  if (t.chatId)
    return (
      <span className="ml-auto flex gap-3">
        <Link href={`/chat/${t.chatId}`} className="inline-flex items-center gap-1 text-accent hover:underline" data-testid="trial-chat-link">
          <MessageSquare size={12} aria-hidden /> chat
        </Link>
        <Link href={`/chat/${t.chatId}#trace`} className="inline-flex items-center gap-1 text-accent hover:underline" data-testid="trial-trace-link">
          <Activity size={12} aria-hidden /> trace
        </Link>
      </span>
    );
  if (t.transcript)
    return (
      <Button
        variant="link"
        size="bare"
        className="ml-auto inline-flex items-center gap-1 text-xs"
        aria-expanded={transcriptOpen}
        onClick={onTranscript}
        data-testid="trial-transcript-toggle"
      >
        <ScrollText size={12} aria-hidden /> {transcriptOpen ? "hide transcript" : "transcript"}
      </Button>
    );
  return <span className="ml-auto text-muted">no stored chat or transcript (a CLI run from an older Toolroom)</span>;
}

/** One case in one cell, trial by trial: the expected calls beside the actual ones, argument by argument, with each trial's chat and trace (or transcript). */
export function CaseDiffPanel(props: { root: string | null; path: string; caseName: string; cell: string; onClose: () => void }) {
  const q = new URLSearchParams({ path: props.path, case: props.caseName, cell: props.cell });
  if (props.root) q.set("root", props.root);
  const query = useQuery({
    queryKey: ["runs", "eval-case", props.root, props.path, props.caseName, props.cell],
    queryFn: () => fetchJson<EvalCaseDetail>(`/api/runs/eval-case?${q.toString()}`),
  });
  const [transcripts, setTranscripts] = useState<ReadonlySet<number>>(new Set());
  const toggleTranscript = (trial: number) =>
    setTranscripts((open) => {
      const next = new Set(open);
      if (!next.delete(trial)) next.add(trial);
      return next;
    });
  return (
    <div
      className="rounded-lg border border-border bg-panel p-4"
      data-testid="case-diff"
      role="region"
      aria-label={`${props.caseName} in ${props.cell}`}
      onKeyDown={(e) => {
        if (e.key === "Escape") props.onClose();
      }}
    >
      <div className="mb-3 flex items-start gap-3">
        <div className="min-w-0">
          <h3 className="font-mono text-sm font-semibold">{props.caseName}</h3>
          <p className="font-mono text-xs text-muted">{props.cell}</p>
          {query.data?.prompt ? <p className="mt-1 text-xs">prompt: “{query.data.prompt}”</p> : null}
        </div>
        <Button variant="ghost" size="sm" className="ml-auto" onClick={props.onClose} aria-label="Close the diff" data-testid="case-diff-close">
          <X size={14} aria-hidden />
        </Button>
      </div>
      {query.isPending ? <Skeleton className="h-24 w-full" /> : null}
      {query.isError ? (
        <p role="alert" className="font-mono text-xs text-denied">
          {query.error.message}
        </p>
      ) : null}
      {query.data && query.data.expect === null ? (
        <p className="mb-2 text-xs text-amber-700 dark:text-pending">
          This run did not record the cases&apos; expectations (written by an older Toolroom): actual calls only.
        </p>
      ) : null}
      <div className="space-y-4">
        {query.data?.trials.map((t) => (
          <div key={t.trial} className="space-y-2 border-t border-border pt-3 first:border-0 first:pt-0" data-testid="case-trial" data-verdict={t.verdict}>
            <div className="flex flex-wrap items-center gap-2 text-xs">
              <span className="font-medium">trial {t.trial}</span>
              <VerdictBadge verdict={t.verdict} />
              <span className="text-muted" data-testid="trial-tokens">
                {t.inputTokens === null && t.outputTokens === null ? "tokens not reported" : `${t.inputTokens ?? "?"} in / ${t.outputTokens ?? "?"} out tokens`}
              </span>
              <TrialLinks t={t} transcriptOpen={transcripts.has(t.trial)} onTranscript={() => toggleTranscript(t.trial)} />
            </div>
            {t.reasons.length ? (
              <ul className="font-mono text-xs text-denied">
                {t.reasons.map((r) => (
                  <li key={r}>{r}</li>
                ))}
              </ul>
            ) : null}
            <CallDiff rows={t.rows} />
            {t.judge ? (
              <p className="text-xs" data-testid="trial-judge">
                judge{t.judge.model ? ` (${t.judge.model})` : ""}: <span className="font-medium">{t.judge.verdict ?? "no verdict"}</span>
                {t.judge.reason ? ` — ${t.judge.reason}` : ""}
              </p>
            ) : null}
            {t.answer ? (
              <details className="text-xs">
                <summary className="cursor-pointer text-muted">answer</summary>
                <p className="mt-1 whitespace-pre-wrap">{t.answer}</p>
              </details>
            ) : null}
            {transcripts.has(t.trial) ? (
              <TrialTranscript root={props.root} path={props.path} caseName={props.caseName} cell={props.cell} trial={t.trial} />
            ) : null}
          </div>
        ))}
      </div>
    </div>
  );
}
