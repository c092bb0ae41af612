"use client";

import type { ReactNode } from "react";
import { useMayAct, type PagePerson } from "./person-context";

/** Its children when the signed-in role may use them (always without sign-in), else a note saying who may. */
export function RoleGate({ role, note, children }: { role: PagePerson["role"]; note?: ReactNode; children: ReactNode }) {
  if (useMayAct(role)) return children;
  return note === undefined ? null : (
    <p className="text-xs text-muted" data-testid="role-note">
      {note}
    </p>
  );
}
