"use client";

import { LogOut } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import type { PagePerson } from "./person-context";

/** The signed-in person in the header, and Sign out (better-auth ends the session server-side). */
export function AccountMenu({ person }: { person: PagePerson }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  async function signOut() {
    setBusy(true);
    const response = await fetch("/api/auth/sign-out", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }).catch(() => null);
    if (!response?.ok) {
      setBusy(false);
      toast.error("Could not sign out: the server did not answer. Try again.");
      return;
    }
    // The server renders every page anew for nobody: the shell drops the person with it.
    router.replace("/sign-in");
    router.refresh();
  }
  return (
    <div className="flex items-center gap-2 text-xs" data-testid="account">
      <span className="text-muted">
        <span className="text-fg" data-testid="account-email">
          {person.email}
        </span>{" "}
        · {person.role}
      </span>
      <Button size="sm" variant="ghost" onClick={() => void signOut()} disabled={busy}>
        <LogOut size={12} aria-hidden /> Sign out
      </Button>
    </div>
  );
}
