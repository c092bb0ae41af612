import "server-only";
import { headers } from "next/headers";
import type { Person } from "./person";
import { authRequired, whoIs } from "./who";

/** The person a page renders for: null on a server without sign-in (and on the sign-in page itself). */
export async function pagePerson(): Promise<Person | null> {
  if (!authRequired()) return null;
  return whoIs(await headers());
}
