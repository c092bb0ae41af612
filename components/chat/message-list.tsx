"use client";

import type { UIMessage } from "ai";
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import { fetchJson } from "@/lib/client/fetch-json";
import type { ToolJson } from "@/lib/tools/registry-json";
import { MessageItem } from "./message-item";

/** Older messages are asked for when the top of what is loaded comes this close. */
const LOAD_OLDER_WITHIN_PX = 1200;
/** "At the bottom" within this many pixels: the list follows a growing answer only then. */
const PINNED_WITHIN_PX = 48;

export interface MessageListProps {
  chatId: string;
  messages: UIMessage[];
  tools: Record<string, ToolJson>;
  /** Where the messages the page did not send end (the cursor for the next page up); null when it sent them all. */
  olderBefore: number | null;
  /** Older messages, to put before the ones shown. */
  onOlder: (messages: UIMessage[]) => void;
}

/**
 * The chat's messages. Each row draws again only when its message changes, and the browser skips
 * laying out and painting rows off screen (`content-visibility: auto`, sized as last drawn). The
 * list stays at the bottom while the person is there (a growing answer, a new message) and leaves
 * them where they are when they are not; older pages, loaded as they near the top, go in above
 * without moving what they read (the browser's scroll anchoring).
 */
export function MessageList({ chatId, messages, tools, olderBefore: firstCursor, onOlder }: MessageListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const packages = useMemo(() => Object.fromEntries(Object.entries(tools).map(([name, t]) => [name, t.source_package])), [tools]);
  const pinned = useRef(true);

  // The person's own new message brings them to the bottom, wherever they had scrolled.
  const last = messages.at(-1);
  const lastUserId = last?.role === "user" ? last.id : undefined;
  const seenUserId = useRef(lastUserId);
  useLayoutEffect(() => {
    if (lastUserId !== seenUserId.current) pinned.current = true;
    seenUserId.current = lastUserId;
    const el = scroller.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [messages, lastUserId]);

  // Older rows go in above the viewport. The browser keeps the view in place (scroll anchoring),
  // except at the very top, where it does not anchor: there the position is kept by hand.
  const firstId = messages[0]?.id;
  const beforePrepend = useRef<{ height: number; top: number } | null>(null);
  useLayoutEffect(() => {
    const el = scroller.current;
    const was = beforePrepend.current;
    beforePrepend.current = null;
    if (el && was?.top === 0 && el.scrollTop === 0) el.scrollTop = el.scrollHeight - was.height;
  }, [firstId]);

  const [olderBefore, setOlderBefore] = useState(firstCursor);
  const loading = useRef(false);
  const loadOlder = useCallback(async () => {
    if (olderBefore === null || loading.current) return;
    loading.current = true;
    try {
      const page = await fetchJson<{ messages: UIMessage[]; olderBefore: number | null }>(
        `/api/chats/${encodeURIComponent(chatId)}/messages?before=${olderBefore}`,
      );
      const el = scroller.current;
      beforePrepend.current = el ? { height: el.scrollHeight, top: el.scrollTop } : null;
      onOlder(page.messages);
      setOlderBefore(page.olderBefore);
    } catch (error) {
      toast.error(`Could not load older messages: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      loading.current = false;
    }
  }, [chatId, olderBefore, onOlder]);

  return (
    <div
      ref={scroller}
      className="min-h-0 flex-1 overflow-y-auto"
      data-testid="message-list"
      onScroll={(event) => {
        const el = event.currentTarget;
        pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight <= PINNED_WITHIN_PX;
        if (el.scrollTop < LOAD_OLDER_WITHIN_PX) void loadOlder();
      }}
    >
      <div className="mx-auto flex max-w-3xl flex-col px-4 py-5">
        {olderBefore !== null ? (
          <p className="pb-4 text-center text-xs text-muted" data-testid="older-messages">
            Older messages load as you scroll up.
          </p>
        ) : null}
        {messages.map((message) => (
          <div key={message.id} className="flex flex-col pb-4 [contain-intrinsic-size:auto_120px] [content-visibility:auto]">
            <MessageItem message={message} packages={packages} />
          </div>
        ))}
      </div>
    </div>
  );
}
