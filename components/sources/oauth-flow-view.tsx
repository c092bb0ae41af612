"use client";

import { useState } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import type { OAuthFlowStep, OAuthStepKind } from "@/lib/mcp/oauth-flow-log";
import { useOAuthStatus } from "./use-oauth-status";

const KIND: Record<OAuthStepKind, string> = {
  "mcp-request": "MCP request",
  "protected-resource-metadata": "Protected-resource metadata (RFC 9728)",
  "authorization-server-metadata": "Authorization-server metadata (RFC 8414 / OIDC)",
  registration: "Dynamic client registration (RFC 7591)",
  authorization: "Authorization page (PKCE S256)",
  callback: "Callback",
  "token-exchange": "Token exchange",
  refresh: "Token refresh",
  revocation: "Revocation (RFC 7009)",
  "sign-out": "Sign out",
  other: "Request",
};

function tone(step: OAuthFlowStep): BadgeTone {
  if (step.error) return "denied";
  if (step.status === undefined) return "neutral";
  if (step.status < 300) return "done";
  if (step.status < 400) return "running";
  // A 404 on a well-known path is discovery trying the next place (the 2025-03-26 fallbacks), not a failure.
  return step.status === 404 ? "pending" : "denied";
}

/** Each step of a server's last OAuth flow: requests, responses (secrets masked), which metadata was found where. */
export function OAuthFlowView({ server }: { server: string }) {
  const status = useOAuthStatus(server);
  if (status.isPending) return <p className="text-sm text-muted">Loading the last flow…</p>;
  if (status.isError)
    return (
      <p role="alert" className="text-sm text-denied">
        {status.error.message}
      </p>
    );
  const { steps } = status.data;
  if (!steps.length)
    return (
      <EmptyState title="No OAuth flow recorded yet" testId="oauth-flow-empty">
        Sign in (here, or <code className="font-mono">toolroom mcp login {server}</code>) and each step shows up here.
      </EmptyState>
    );
  return (
    <ol className="space-y-1.5" data-testid="oauth-flow">
      {steps.map((step, i) => (
        <FlowStep key={`${step.at}-${i}`} step={step} />
      ))}
    </ol>
  );
}

function FlowStep({ step }: { step: OAuthFlowStep }) {
  const [open, setOpen] = useState(false);
  const detail = step.request !== undefined || step.body !== undefined || step.wwwAuthenticate !== undefined;
  return (
    <li className="rounded-md border border-border bg-panel text-sm" data-testid="oauth-step" data-kind={step.kind} data-status={step.status ?? ""}>
      <div className="flex flex-wrap items-center gap-2 px-3 py-1.5">
        <span className="w-40 shrink-0 text-xs font-medium">{KIND[step.kind]}</span>
        <span className="font-mono text-xs text-muted">{step.method}</span>
        <span className="min-w-0 flex-1 truncate font-mono text-xs" title={step.url}>
          {step.url}
        </span>
        {step.note ? <span className="text-xs text-muted">{step.note}</span> : null}
        {step.status !== undefined || step.error ? <Badge tone={tone(step)}>{step.error ? "failed" : step.status}</Badge> : null}
        {detail ? (
          <Button size="sm" variant="ghost" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
            {open ? "Hide" : "Details"}
          </Button>
        ) : null}
      </div>
      {step.error ? <p className="border-t border-border px-3 py-1 text-xs text-denied">{step.error}</p> : null}
      {open ? (
        <div className="space-y-1 border-t border-border px-3 py-2 text-xs">
          {step.wwwAuthenticate ? <Block label="WWW-Authenticate" value={step.wwwAuthenticate} /> : null}
          {step.request !== undefined ? <Block label="Request" value={JSON.stringify(step.request, null, 2)} /> : null}
          {step.body !== undefined ? <Block label="Response" value={JSON.stringify(step.body, null, 2)} /> : null}
        </div>
      ) : null}
    </li>
  );
}

function Block({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <div className="text-[11px] font-medium tracking-wide text-muted uppercase">{label}</div>
      <pre className="mt-0.5 max-h-72 overflow-auto rounded bg-subtle p-2 font-mono text-[11px] whitespace-pre-wrap break-all">{value}</pre>
    </div>
  );
}
