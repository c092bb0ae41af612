import "server-only";
import { randomBytes } from "node:crypto";
import { getChat, getChatByShareId, listChats, setChatShare, type ChatRecord } from "@/lib/db/queries";
import { audit } from "@/lib/server/auth/audit";
import { canSee } from "@/lib/server/auth/ownership";
import { currentPerson } from "@/lib/server/auth/person";
import { HttpError } from "@/lib/server/http/http-error";

// A chat belongs to its creator (issue AA; the rule is lib/server/auth/ownership): to anyone else it
// does not exist, in the list, on its page and on every route. Every read of a chat by id or of the
// list goes through here (eslint.config.mjs forbids the queries elsewhere).

/** The chat, or null when there is none or it is someone else's (both read as "does not exist"). */
export async function visibleChat(id: string): Promise<ChatRecord | null> {
  const chat = await getChat(id);
  return chat && canSee(chat) ? chat : null;
}

/** For a request that may create the chat: the chat, null when none exists, a 404 when it is someone else's. */
export async function ownChatOrNone(id: string): Promise<ChatRecord | null> {
  const chat = await getChat(id);
  if (chat && !canSee(chat)) throw new HttpError(404, `Chat ${id} does not exist.`, "unknown_chat");
  return chat;
}

/** The chats the request's person may see, newest first. */
export async function visibleChats(): Promise<ChatRecord[]> {
  const person = currentPerson();
  return listChats(person?.id);
}

/** A 404 unless the chat exists and is the request's person's to see. */
export async function requireVisibleChat(id: string): Promise<ChatRecord> {
  const chat = await visibleChat(id);
  if (!chat) throw new HttpError(404, `Chat ${id} does not exist.`, "unknown_chat");
  return chat;
}

/**
 * Turns a chat's read-only link on (the secret it already has, or a new one: 144 random bits) or
 * off. Only whoever may see the chat may share it: on a server with sign-in, its owner.
 */
export async function shareChat(id: string, on: boolean): Promise<string | null> {
  const chat = await requireVisibleChat(id);
  if (on && chat.shareId) return chat.shareId;
  const { shareId } = await setChatShare(id, on ? randomBytes(18).toString("base64url") : null);
  await audit(on ? "chat.shared" : "chat.unshared", id);
  return shareId;
}

/** The chat a read-only link names, to anyone who has the link (and may read pages at all). */
export async function sharedChat(shareId: string): Promise<ChatRecord | null> {
  return getChatByShareId(shareId);
}
