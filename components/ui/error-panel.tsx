"use client";

import { RotateCcw, TriangleAlert } from "lucide-react";
import Link from "next/link";
import { Button } from "./button";

/**
 * A server component's error reaches the browser as a generic message and a digest (Next keeps
 * the real message, which may hold paths or secrets, in the server's log); a client error keeps
 * its own message.
 */
function causeOf(error: unknown): { message?: string; digest?: string } {
  if (!(error instanceof Error)) return { message: String(error) };
  const digest = (error as { digest?: unknown }).digest;
  if (typeof digest === "string") return { digest };
  return { message: error.message };
}

/** What a page that failed to render shows instead: what happened, where the cause is, how to go on. */
export function ErrorPanel({ error, retry }: { error: unknown; retry: () => void }) {
  const { message, digest } = causeOf(error);
  return (
    <div role="alert" data-testid="error-boundary" className="mx-auto my-12 w-full max-w-lg rounded-lg border border-denied/40 bg-panel p-6">
      <h1 className="flex items-center gap-2 text-base font-semibold text-denied">
        <TriangleAlert size={16} aria-hidden /> This page could not be shown
      </h1>
      {digest ? (
        <p className="mt-2 text-sm text-muted" data-testid="error-cause">
          The server failed while building it. The cause is in the server&apos;s output (the terminal running Toolroom), under reference{" "}
          <code className="rounded bg-subtle px-1 font-mono text-xs text-fg" data-testid="error-digest">
            {digest}
          </code>
          .
        </p>
      ) : (
        <p className="mt-2 font-mono text-sm break-words" data-testid="error-cause">
          {message}
        </p>
      )}
      <div className="mt-4 flex items-center gap-3">
        <Button variant="primary" onClick={retry} data-testid="error-retry">
          <RotateCcw size={14} aria-hidden /> Try again
        </Button>
        <Link href="/chat" className="text-sm text-accent underline">
          Start a new chat
        </Link>
        <Link href="/tools" className="text-sm text-accent underline">
          Tools
        </Link>
      </div>
    </div>
  );
}
