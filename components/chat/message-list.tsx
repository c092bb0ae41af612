"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import type { UIMessage } from "ai";
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import { fetchJson } from "@/lib/client/fetch-json";
import type { ToolJson } from "@/lib/tools/registry-json";
import { MessageItem } from "./message-item";

/** A first guess at a row's height; rows are measured once drawn. */
const ESTIMATED_ROW_PX = 120;
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
 * The chat's messages, virtualized: only the rows near the viewport are in the page, each drawn
 * again only when its message changes. The list stays at the bottom while the person is there (a
 * growing answer, a new message) and keeps what they read in place when they are not; scrolling
 * near the top loads the next page of older messages.
 */
export function MessageList({ chatId, messages, tools, olderBefore: firstCursor, onOlder }: MessageListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const packages = useMemo(() => Object.fromEntries(Object.entries(tools).map(([name, t]) => [name, t.source_package])), [tools]);
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    getItemKey: (index) => messages[index]!.id,
    overscan: 6,
    paddingStart: 20,
    paddingEnd: 4,
    // A chat reads from the bottom: the server render and the first paint show the latest rows.
    initialRect: { width: 768, height: 800 },
    initialOffset: () => messages.length * ESTIMATED_ROW_PX,
    // Rows added above (older pages) keep the viewport where it was; rows added or grown at the end
    // are followed only while the person is at the bottom.
    anchorTo: "end",
    followOnAppend: true,
    scrollEndThreshold: PINNED_WITHIN_PX,
  });

  // Opened at the latest message.
  useLayoutEffect(() => {
    if (messages.length) virtualizer.scrollToIndex(messages.length - 1, { align: "end" });
    // Only on mount: later changes follow the person's position.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The person's own new message brings them to the bottom, wherever they had scrolled.
  const last = messages.at(-1);
  const lastUserId = last?.role === "user" ? last.id : undefined;
  const seenUserId = useRef(lastUserId);
  useLayoutEffect(() => {
    if (lastUserId && lastUserId !== seenUserId.current) virtualizer.scrollToIndex(messages.length - 1, { align: "end" });
    seenUserId.current = lastUserId;
  }, [lastUserId, messages.length, virtualizer]);

  const [olderBefore, setOlderBefore] = useState(firstCursor);
  const loading = useRef(false);
  const loadOlder = useCallback(async () => {
    if (olderBefore === null || loading.current) return;
    loading.current = true;
    try {
      const page = await fetchJson<{ messages: UIMessage[]; olderBefore: number | null }>(
        `/api/chats/${encodeURIComponent(chatId)}/messages?before=${olderBefore}`,
      );
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
      className="min-h-0 flex-1 overflow-y-auto [overflow-anchor:none]"
      data-testid="message-list"
      onScroll={(event) => {
        if (event.currentTarget.scrollTop < LOAD_OLDER_WITHIN_PX) void loadOlder();
      }}
    >
      {olderBefore !== null ? (
        <p className="sr-only" data-testid="older-messages">
          Older messages load as you scroll up.
        </p>
      ) : null}
      <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => (
          <div
            key={row.key}
            data-index={row.index}
            ref={virtualizer.measureElement}
            className="absolute top-0 left-0 w-full"
            style={{ transform: `translateY(${row.start}px)` }}
          >
            <div className="mx-auto flex max-w-3xl flex-col px-4 pb-4">
              <MessageItem message={messages[row.index]!} packages={packages} />
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}
