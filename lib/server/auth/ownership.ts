import "server-only";
import { currentPerson } from "./person";

// What a person makes on a shared Toolroom is theirs (issue AA): a chat (and so a comparison's and
// an eval run's chats), a try-it call waiting for approval, the questions its tool asks. To anyone
// else — admins included — it does not exist. Made without sign-in (ownerId null), it is everyone's.

/** Whether the request's person may see (and act on) something with this owner. */
export function canSee(owned: { ownerId: string | null }): boolean {
  const person = currentPerson();
  return !person || owned.ownerId === null || owned.ownerId === person.id;
}

/** Who owns what is made now: the request's person (none without sign-in). */
export function newOwner(): string | null {
  return currentPerson()?.id ?? null;
}
