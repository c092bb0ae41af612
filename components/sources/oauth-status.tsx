"use client";

import { useQueryClient } from "@tanstack/react-query";
import { KeyRound, LogIn, LogOut } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { fetchJson } from "@/lib/client/fetch-json";
import { refreshAfterSignChange, useOAuthStatus } from "./use-oauth-status";

const STATE = {
  "signed-in": { label: "signed in", tone: "done" },
  "signed-out": { label: "not signed in", tone: "neutral" },
  "needs-sign-in": { label: "needs sign-in", tone: "pending" },
} as const;

/**
 * A remote MCP server's OAuth state with Sign in / Sign out. Sign in sends this tab to the
 * authorization page; the server's callback route brings it back here. Tokens are never shown.
 */
export function OAuthStatus({ server }: { server: string }) {
  const status = useOAuthStatus(server);
  const queryClient = useQueryClient();
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const refresh = () => {
    // The Sources list is rendered on the server, from the registry the sign-in just reloaded.
    router.refresh();
    return refreshAfterSignChange(queryClient, server);
  };
  const [error, setError] = useState<string | null>(null);

  const signIn = async () => {
    setBusy(true);
    setError(null);
    try {
      const returnTo = `${window.location.pathname}${window.location.search}`;
      const started = await fetchJson<{ authorizationUrl?: string; authorized: boolean }>(`/api/mcp-oauth/${encodeURIComponent(server)}/sign-in`, {
        method: "POST",
        json: { returnTo },
      });
      if (started.authorizationUrl) return window.location.assign(started.authorizationUrl);
      await refresh();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const signOut = async () => {
    setBusy(true);
    setError(null);
    try {
      await fetchJson(`/api/mcp-oauth/${encodeURIComponent(server)}/sign-out`, { method: "POST" });
      await refresh();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  if (status.isPending) return <span className="text-xs text-muted">checking sign-in…</span>;
  if (status.isError)
    return (
      <span role="alert" className="text-xs text-denied" data-testid="oauth-status-error">
        {status.error.message}
      </span>
    );
  const view = status.data;
  const shown = STATE[view.state];
  return (
    <span className="inline-flex flex-wrap items-center gap-2" data-testid="oauth-status" data-state={view.state} data-server={server}>
      <Badge tone={shown.tone} title={view.scope ? `scope: ${view.scope}` : undefined}>
        <KeyRound size={11} className="mr-1" aria-hidden />
        {shown.label}
      </Badge>
      {view.state === "signed-in" ? (
        <Button size="sm" variant="outline" disabled={busy} onClick={() => void signOut()} data-testid="oauth-sign-out">
          <LogOut size={13} aria-hidden /> Sign out
        </Button>
      ) : (
        <Button
          size="sm"
          variant={view.state === "needs-sign-in" ? "primary" : "outline"}
          disabled={busy}
          onClick={() => void signIn()}
          data-testid="oauth-sign-in"
        >
          <LogIn size={13} aria-hidden /> Sign in
        </Button>
      )}
      {error ? (
        <span role="alert" className="text-xs text-denied" data-testid="oauth-action-error">
          {error}
        </span>
      ) : null}
    </span>
  );
}
