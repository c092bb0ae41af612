"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { OidcButton } from "./oidc-button";

const field = "h-9 w-full rounded-md border border-border bg-panel px-3 text-sm text-fg focus:border-accent focus:outline-none";

/** What the server said, as a sentence: its `{ error }` (ours) or `{ message }` (better-auth's). */
async function reasonOf(response: Response): Promise<string> {
  const body = (await response.json().catch(() => ({}))) as { error?: string; message?: string };
  if (response.status === 401) return "Wrong email or password.";
  return body.error ?? body.message ?? `The server answered ${response.status}.`;
}

/**
 * Email and password, sent to better-auth's sign-in (or, on a new server's first visit, to make the
 * first admin); on success the browser goes where it was going. Nothing typed is lost on an error.
 * With auth.oidc, a button beside it signs in at the OpenID provider instead (not for the first
 * admin, who is made here); `returnedError` is why the provider's sign-in came back refused.
 */
export function SignInForm({
  next,
  firstAdmin,
  oidc,
  returnedError,
}: {
  next: string;
  firstAdmin: boolean;
  oidc: { providerId: string; name: string } | null;
  returnedError: string | null;
}) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(returnedError);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const response = await fetch(firstAdmin ? "/api/first-admin" : "/api/auth/sign-in/email", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email, password }),
      });
      if (!response.ok) {
        setError(await reasonOf(response));
        return;
      }
      window.location.assign(next);
    } catch (cause) {
      setError(`Could not reach the server: ${(cause as Error).message}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={(event) => void submit(event)}
      className="mx-auto my-16 flex w-full max-w-sm flex-col gap-4 rounded-lg border border-border bg-panel p-6"
      data-testid="sign-in-form"
    >
      <div>
        <h1 className="text-lg font-semibold">{firstAdmin ? "Create the first admin" : "Sign in to Toolroom"}</h1>
        <p className="mt-1 text-sm text-muted">
          {firstAdmin
            ? "This server has no users yet. The account you make here is its admin; add others with `toolroom users add`."
            : "This Toolroom is shared: sign in with the account an admin made for you."}
        </p>
      </div>
      <label className="flex flex-col gap-1 text-sm">
        Email
        <input
          className={field}
          type="email"
          name="email"
          autoComplete="username"
          required
          autoFocus
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Password
        <input
          className={field}
          type="password"
          name="password"
          autoComplete={firstAdmin ? "new-password" : "current-password"}
          required
          minLength={firstAdmin ? 8 : undefined}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      {error ? (
        <p role="alert" className="text-sm text-denied" data-testid="sign-in-error">
          {error}
        </p>
      ) : null}
      <Button type="submit" variant="primary" size="lg" disabled={busy}>
        {busy ? "Signing in…" : firstAdmin ? "Create admin and sign in" : "Sign in"}
      </Button>
      {oidc && !firstAdmin ? (
        <>
          <p className="flex items-center gap-2 text-xs text-muted" aria-hidden>
            <span className="h-px flex-1 bg-border" /> or <span className="h-px flex-1 bg-border" />
          </p>
          <OidcButton providerId={oidc.providerId} name={oidc.name} next={next} onError={setError} />
        </>
      ) : null}
    </form>
  );
}
