import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { signInErrorMessage } from "@/components/auth/sign-in-error";
import { safeNext } from "@/components/auth/safe-next";
import { oidcChoice, signInState } from "@/lib/server/auth/sign-in-state";

export const metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[]; error?: string | string[] }> }) {
  const params = await searchParams;
  const next = safeNext(params.next);
  const state = await signInState(await headers());
  // Nobody to sign in as (the loopback default), or already signed in: on to the page.
  if (state === "off" || state === "signed-in") redirect(next);
  const oidc = oidcChoice();
  return (
    <SignInForm
      next={next}
      firstAdmin={state === "first-admin"}
      oidc={oidc}
      returnedError={signInErrorMessage(params.error, oidc?.name ?? "the OpenID provider")}
    />
  );
}
