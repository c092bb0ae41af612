"use client";

import { createContext, useContext, type ReactNode } from "react";

/** Who is signed in, as pages need it to hide what the role may not do (the server refuses it anyway). */
export interface PagePerson {
  email: string;
  role: "viewer" | "member" | "admin";
}

const RANK = { viewer: 0, member: 1, admin: 2 } as const;
const PersonContext = createContext<PagePerson | null>(null);

export function PersonProvider({ person, children }: { person: PagePerson | null; children: ReactNode }) {
  return <PersonContext.Provider value={person}>{children}</PersonContext.Provider>;
}

/** Whether the page may offer an action that needs `role`: always, on a server without sign-in. */
export function useMayAct(role: PagePerson["role"]): boolean {
  const person = useContext(PersonContext);
  return person === null || RANK[person.role] >= RANK[role];
}
