import { useEffect, useSyncExternalStore } from "react";

/**
 * The model the footer names: the open chat's own model while a chat page shows one, else the
 * settings' default (chat.llm). A tiny store, since the footer is rendered by the layout, outside
 * the chat page that knows the chat's model.
 */
let chatModel: string | null = null;
const listeners = new Set<() => void>();

export function setFooterChatModel(label: string | null): void {
  chatModel = label;
  for (const listener of listeners) listener();
}

export function footerChatModel(): string | null {
  return chatModel;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** What the footer shows: `{ prefix, label }`, the chat's model when one is set. */
export function footerModelText(chat: string | null, defaultLabel: string): { prefix: string; label: string } {
  return chat === null ? { prefix: "model", label: defaultLabel } : { prefix: "chat model", label: chat };
}

export function useFooterModel(defaultLabel: string): { prefix: string; label: string } {
  const chat = useSyncExternalStore(subscribe, footerChatModel, () => null);
  return footerModelText(chat, defaultLabel);
}

/** A chat page names its model in the footer while it is shown. */
export function useShowChatModelInFooter(label: string | null): void {
  useEffect(() => {
    setFooterChatModel(label);
    return () => setFooterChatModel(null);
  }, [label]);
}
