"use client";

import { KeyRound } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";

/** better-auth's error (`message`) or ours (`error`, from lib/server/http), as a sentence. */
function reasonOf(error: { message?: string; status: number; statusText: string }): string {
  return (error as { error?: string }).error ?? error.message ?? `The server answered ${error.status} ${error.statusText}.`;
}

/**
 * "Sign in with <provider>": better-auth's client asks the server for the provider's authorization
 * URL and takes the browser there; the provider sends it back to `next`, or to this page with the
 * reason it failed. Its client is loaded on the click, so the page does not carry it.
 */
export function OidcButton({ providerId, name, next, onError }: { providerId: string; name: string; next: string; onError: (reason: string | null) => void }) {
  const [busy, setBusy] = useState(false);

  async function start() {
    setBusy(true);
    onError(null);
    try {
      const { createAuthClient } = await import("better-auth/client");
      const { error } = await createAuthClient().signIn.social({
        provider: providerId,
        callbackURL: next,
        errorCallbackURL: `/sign-in?next=${encodeURIComponent(next)}`,
      });
      // Without an error the browser is on its way to the provider: the button stays busy till it goes.
      if (error) {
        onError(reasonOf(error));
        setBusy(false);
      }
    } catch (cause) {
      onError(`Could not reach the server: ${(cause as Error).message}`);
      setBusy(false);
    }
  }

  return (
    <Button variant="outline" size="lg" onClick={() => void start()} disabled={busy} data-testid="oidc-sign-in">
      <KeyRound size={14} aria-hidden /> {busy ? `Going to ${name}…` : `Sign in with ${name}`}
    </Button>
  );
}
