/**
 * What the Sources view hands to a chat's composer: a prompt's text, resources to attach. It goes
 * through sessionStorage (this tab only) and is taken once, by the chat it was meant for.
 */
export interface DraftAttachment {
  uri: string;
  name: string;
  mediaType: string;
  /** A data: URL with the resource's content, as an AI SDK file part carries it. */
  url: string;
}

export interface ComposerDraft {
  /** A chat id, or "new" for the next new chat. */
  chat: string;
  text?: string;
  attachments?: DraftAttachment[];
  /** Numbers the drafts a tab has taken, so a composer starts afresh for each. */
  seq?: number;
}

const DRAFT_KEY = "toolroom:composer-draft";
const LAST_CHAT_KEY = "toolroom:last-chat";

function read(): ComposerDraft | null {
  try {
    const raw = window.sessionStorage.getItem(DRAFT_KEY);
    return raw ? (JSON.parse(raw) as ComposerDraft) : null;
  } catch {
    return null;
  }
}

/** Adds to the draft for `chat` (text replaces, attachments add up); a draft for another chat is replaced. */
export function addToDraft(draft: ComposerDraft): void {
  const current = read();
  const same = current?.chat === draft.chat ? current : null;
  const attachments = [...(same?.attachments ?? []), ...(draft.attachments ?? [])];
  const text = draft.text ?? same?.text;
  const next: ComposerDraft = { chat: draft.chat, ...(text !== undefined ? { text } : {}), ...(attachments.length ? { attachments } : {}) };
  window.sessionStorage.setItem(DRAFT_KEY, JSON.stringify(next));
}

const taken = new Map<string, ComposerDraft>();
let takenCount = 0;

/**
 * The draft meant for this chat (a new one takes "new"), moved out of storage as it is taken. The
 * same object comes back until another draft arrives, so it can be a useSyncExternalStore snapshot.
 */
export function draftFor(chatId: string, isNew: boolean): ComposerDraft | null {
  const draft = read();
  if (draft && (draft.chat === chatId || (isNew && draft.chat === "new"))) {
    window.sessionStorage.removeItem(DRAFT_KEY);
    taken.set(chatId, { ...draft, seq: ++takenCount });
  }
  return taken.get(chatId) ?? null;
}

/** The chat this tab showed last, so the Sources view can offer "current chat". */
export function rememberChat(chatId: string): void {
  window.sessionStorage.setItem(LAST_CHAT_KEY, chatId);
}

export function lastChat(): string | null {
  try {
    return window.sessionStorage.getItem(LAST_CHAT_KEY);
  } catch {
    return null;
  }
}
