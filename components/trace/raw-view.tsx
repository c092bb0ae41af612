"use client";

import { Copy } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { curlCommand, rawSegments } from "@/lib/trace/raw-text";
import type { TraceStepView } from "@/lib/trace/view";

async function copy(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(`Copied ${what}`);
  } catch (error) {
    toast.error(`Could not copy ${what}: ${(error as Error).message}`);
  }
}

function Block({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) {
  return (
    <section className="flex flex-col gap-1" data-testid={testId}>
      <h3 className="text-[11px] font-medium tracking-wide text-muted uppercase">{title}</h3>
      {children}
    </section>
  );
}

const PRE = "max-h-72 overflow-auto rounded border border-border bg-subtle px-2 py-1.5 font-mono text-[11px] leading-4 whitespace-pre-wrap break-words";

/** The exchange with the provider: the request it got and the reply it sent, secrets masked (the server did that). */
export function RawView({ step }: { step: TraceStepView }) {
  const { request, response } = step.raw;
  const curl = curlCommand(request);
  const segments = step.toolMode === "text" ? rawSegments(response) : [];
  return (
    <div className="flex flex-col gap-3 text-xs" data-testid="raw-view">
      <div className="flex flex-wrap gap-1.5">
        <Button size="sm" data-testid="copy-json" onClick={() => void copy(JSON.stringify(step.raw, null, 2), "the exchange as JSON")}>
          <Copy size={12} aria-hidden /> Copy JSON
        </Button>
        <Button
          size="sm"
          data-testid="copy-curl"
          disabled={!curl}
          title={curl ? "The request as curl; set API_KEY first" : "This model is not called over HTTP"}
          onClick={() => curl && void copy(curl, "the curl command")}
        >
          <Copy size={12} aria-hidden /> Copy as curl
        </Button>
      </div>
      {step.raw.truncated ? (
        <p className="text-pending" data-testid="raw-truncated">
          truncated: parts of this exchange were too long to keep whole.
        </p>
      ) : null}
      {request.url ? (
        <Block title="Endpoint">
          <code className="font-mono text-[11px] break-all">{request.url}</code>
        </Block>
      ) : null}
      {request.system ? (
        <Block title={step.toolMode === "text" ? "System prompt (with the tool descriptions)" : "System prompt"}>
          <pre className={PRE}>{request.system}</pre>
        </Block>
      ) : null}
      {request.tools?.length ? (
        <Block title={`Tools (${request.tools.length}, JSON Schema)`}>
          <pre className={PRE}>{JSON.stringify(request.tools, null, 2)}</pre>
        </Block>
      ) : null}
      <Block title={`Messages (${request.messages.length})`}>
        <pre className={PRE}>{JSON.stringify(request.messages, null, 2)}</pre>
      </Block>
      {request.body !== undefined ? (
        <Block title="HTTP body">
          <pre className={PRE}>{typeof request.body === "string" ? request.body : JSON.stringify(request.body, null, 2)}</pre>
        </Block>
      ) : null}
      <Block title={step.toolMode === "text" ? "Raw reply (calls highlighted)" : "Reply text"} testId="raw-response">
        {step.toolMode === "text" ? (
          <pre className={PRE} data-testid="raw-text">
            {segments.map((segment, i) =>
              segment.kind === "plain" ? (
                <span key={i}>{segment.text}</span>
              ) : (
                <mark
                  key={i}
                  data-testid={segment.kind === "call" ? "raw-call-span" : "raw-miss-span"}
                  title={segment.reason ?? "recognised tool call"}
                  className={cn(
                    "rounded-sm px-px text-fg",
                    segment.kind === "call" ? "bg-done/25" : "bg-denied/20 underline decoration-denied decoration-wavy",
                  )}
                >
                  {segment.text}
                </mark>
              ),
            )}
            {response.text ? null : <span className="text-muted">(no text)</span>}
          </pre>
        ) : (
          <pre className={PRE}>{response.text || <span className="text-muted">(no text)</span>}</pre>
        )}
      </Block>
      {response.toolInputs.length ? (
        <Block title="Tool-call deltas">
          {response.toolInputs.map((input) => (
            <pre key={input.id} className={PRE} data-testid="raw-tool-deltas">
              <span className="text-muted">{input.toolName} </span>
              {input.deltas.map((delta, i) => (
                <span key={i} className="border-r border-border/80 last:border-r-0">
                  {delta}
                </span>
              ))}
            </pre>
          ))}
        </Block>
      ) : null}
      {response.nearMisses.length ? (
        <Block title="Near-misses the parser rejected" testId="raw-near-misses">
          <ul className="flex flex-col gap-1">
            {response.nearMisses.map((miss, i) => (
              <li key={i} className="rounded border border-denied/40 px-2 py-1" data-testid="raw-near-miss">
                <code className="block font-mono text-[11px] break-all whitespace-pre-wrap">{miss.raw}</code>
                <span className="text-denied">{miss.error}</span>
              </li>
            ))}
          </ul>
        </Block>
      ) : null}
    </div>
  );
}
