import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import type { Role } from "./roles";

/** Who is asking: a signed-in person, or one whose API token a request carries. */
export interface Person {
  id: string;
  email: string;
  role: Role;
}

// The request's person, for the code a route calls (the approval decision, a chat's owner)
// without threading it through every signature. Unset: no sign-in on this server.
const current = new AsyncLocalStorage<Person>();

export function asPerson<T>(person: Person | null, fn: () => T): T {
  return person ? current.run(person, fn) : fn();
}

/** The person of the request being served, or null when this server has no sign-in. */
export function currentPerson(): Person | null {
  return current.getStore() ?? null;
}
