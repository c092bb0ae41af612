"use client";

import { RoleGate } from "@/components/auth/role-gate";
import { Loader2, Play, Square } from "lucide-react";
import { useState } from "react";
import { ApprovalDialog } from "@/components/approvals/approval-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CallRows } from "./call-rows";
import { useCollectionRun, type CollectionOverview } from "./use-collection-run";

const when = (iso: string) => new Date(iso).toLocaleString([], { dateStyle: "short", timeStyle: "short" });

/** One collection: its vars, Run, its calls with the latest run's results, and its history. */
export function CollectionCard({ listing }: { listing: CollectionOverview }) {
  const { state, start, decide, stop } = useCollectionRun(listing.key);
  const collection = listing.collection;
  const [vars, setVars] = useState<Record<string, string>>(() => Object.fromEntries(Object.entries(collection?.vars ?? {}).map(([k, v]) => [k, String(v)])));
  const run = state.run ?? listing.last;
  const running = state.run?.state === "running";
  const next = running ? state.run!.done : null;
  const source = listing.key.startsWith("source:");

  return (
    <section className="rounded-lg border border-border bg-panel" data-testid="collection" data-key={listing.key}>
      <header className="flex flex-wrap items-start justify-between gap-3 border-b border-border/70 px-4 py-3">
        <div className="min-w-0">
          <h2 className="flex items-center gap-2 font-mono text-sm font-semibold">
            {collection?.name ?? listing.label}
            <Badge
              tone="neutral"
              title={source ? "From the source root: it runs only tools that exist, and every confirming call asks you" : "Shipped with Toolroom"}
            >
              {source ? "source root" : "example"}
            </Badge>
          </h2>
          <p className="font-mono text-xs text-muted">{listing.label}</p>
          {collection?.description ? <p className="mt-1 text-sm text-muted">{collection.description}</p> : null}
        </div>
        {collection ? (
          <div className="flex flex-wrap items-end gap-2">
            {Object.keys(vars).map((name) => (
              <label key={name} className="flex flex-col gap-0.5 text-[11px] text-muted">
                <span className="font-mono">{name}</span>
                <input
                  value={vars[name]}
                  onChange={(e) => setVars((v) => ({ ...v, [name]: e.target.value }))}
                  disabled={running || state.busy}
                  data-testid={`collection-var-${name}`}
                  className="h-7 w-36 rounded-md border border-border bg-bg px-2 font-mono text-xs text-fg focus:border-accent focus:outline-none"
                />
              </label>
            ))}
            {running ? (
              <Button size="sm" onClick={() => void stop()} data-testid="collection-stop">
                <Square size={12} aria-hidden /> Stop
              </Button>
            ) : (
              <RoleGate role="member" note="members run collections">
                <Button size="sm" variant="primary" disabled={state.busy} onClick={() => void start(vars)} data-testid="collection-run">
                  {state.busy ? <Loader2 size={14} className="animate-spin" aria-hidden /> : <Play size={14} aria-hidden />}
                  Run
                </Button>
              </RoleGate>
            )}
          </div>
        ) : null}
      </header>

      {listing.error ? (
        <pre
          role="alert"
          data-testid="collection-error"
          className="m-4 overflow-auto rounded-md border border-denied/50 bg-denied/5 px-3 py-2 text-xs whitespace-pre-wrap text-denied"
        >
          {listing.error}
        </pre>
      ) : null}
      {state.error ? (
        <p role="alert" className="mx-4 mt-3 text-xs text-denied" data-testid="collection-run-error">
          {state.error}
        </p>
      ) : null}

      {collection ? (
        <>
          <div className="flex flex-wrap items-center gap-3 px-4 py-2 text-xs text-muted" data-testid="collection-summary">
            {run ? (
              <span>
                <span className={run.failed ? "text-denied" : run.state === "done" ? "text-done" : ""}>
                  {run.passed} of {run.total} passed{run.failed ? `, ${run.failed} failed` : ""}
                </span>{" "}
                · {run.state === "running" ? `running (${run.done} of ${run.total})` : run.state} · {when(run.startedAt)}
              </span>
            ) : (
              <span>Not run yet: Run calls each tool in order and checks what it returns.</span>
            )}
            {listing.history.length > 1 ? (
              <span className="flex items-center gap-1" data-testid="collection-history" aria-label="Earlier runs">
                history:
                {listing.history.map((h) => (
                  <span
                    key={h.id}
                    title={`${when(h.startedAt)}: ${h.passed} of ${h.total} passed (${h.state})`}
                    className={`inline-block size-2.5 rounded-full ${h.state !== "done" ? "bg-border" : h.failed ? "bg-denied" : "bg-done"}`}
                  />
                ))}
              </span>
            ) : null}
          </div>
          <CallRows
            calls={collection.calls}
            results={run?.results ?? []}
            changes={run?.changes ?? {}}
            waitingAt={state.approval && next !== null ? next : null}
            runningAt={!state.approval && state.busy ? next : null}
          />
        </>
      ) : null}

      <ApprovalDialog
        request={state.approval}
        busy={state.busy}
        onApprove={({ editedInput }) => void decide("approve", { editedInput })}
        onDeny={(reason) => void decide("deny", reason ? { reason } : {})}
        onExpire={() => void decide("deny")}
      />
    </section>
  );
}
