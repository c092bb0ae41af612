import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { safeNext } from "@/components/auth/safe-next";
import { signInState } from "@/lib/server/auth/sign-in-state";

export const metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const next = safeNext((await searchParams).next);
  const state = await signInState(await headers());
  // Nobody to sign in as (the loopback default), or already signed in: on to the page.
  if (state === "off" || state === "signed-in") redirect(next);
  return <SignInForm next={next} firstAdmin={state === "first-admin"} />;
}
