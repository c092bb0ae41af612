import "server-only";
import { headers } from "next/headers";
import { asPerson, type Person } from "./person";
import { authRequired, whoIs } from "./who";

/** The person a page renders for: null on a server without sign-in (and on the sign-in page itself). */
export async function pagePerson(): Promise<Person | null> {
  if (!authRequired()) return null;
  return whoIs(await headers());
}

/** Runs a page's reads as its person, so they see what the API would show them (their own chats). */
export async function asPagePerson<T>(read: () => Promise<T>): Promise<T> {
  return asPerson(await pagePerson(), read);
}
