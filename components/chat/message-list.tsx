"use client";

import type { UIMessage } from "ai";
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { toast } from "sonner";
import { fetchJson } from "@/lib/client/fetch-json";
import type { ToolJson } from "@/lib/tools/registry-json";
import { SaveCaseProvider } from "@/components/eval-case/save-case-action";
import { MessageItem } from "./message-item";
import { FIRST_SLICE_ROWS, groupOlderRows, keptScrollTop, nextFirstDrawn, nextSliceRows, undrawnCount } from "./older-rows";

/** Older messages are asked for when the top of what is loaded comes this close. */
const LOAD_OLDER_WITHIN_PX = 1200;
/** "At the bottom" within this many pixels: the list follows a growing answer only then. */
const PINNED_WITHIN_PX = 48;
/** The most rows in one group of older messages (a page from the server is 50). */
const ROWS_PER_GROUP = 50;
/** A row's height before the browser has drawn it, for the scrollbar's sake. */
const ROW_ESTIMATE_PX = 150;

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
 * them where they are when they are not; older pages, loaded as they near the top, go in above a
 * few rows per frame (./older-rows.ts) without moving what they read.
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

  // Older messages are drawn a slice per frame from the bottom up, each slice going in above the
  // row that was first. That row stays where the person saw it: browsers keep the view in place
  // themselves (scroll anchoring), but not at the very top (and, measured, not always when the slice
  // goes into a group at the top), so the row's place is checked, and put right, after every slice.
  const ids = useMemo(() => messages.map((m) => m.id), [messages]);
  const [firstDrawnId, setFirstDrawnId] = useState(messages[0]?.id);
  const undrawn = undrawnCount(ids, firstDrawnId);
  const beforeSlice = useRef<{ row: Element; top: number } | null>(null);
  const sliceRows = useRef(FIRST_SLICE_ROWS);
  useLayoutEffect(() => {
    const el = scroller.current;
    const was = beforeSlice.current;
    beforeSlice.current = null;
    if (!el || !was?.row.isConnected) return;
    const top = was.row.getBoundingClientRect().top;
    if (Math.abs(top - was.top) > 1) el.scrollTop = keptScrollTop(el.scrollTop, was.top, top);
  }, [firstDrawnId]);

  // The message just above the rows the chat opened with: older rows, above it, go in groups of a page.
  const [olderEnd, setOlderEnd] = useState<string>();
  const drawn = undrawn > 0 ? messages.slice(undrawn) : messages;
  const { groups, recentFrom } = useMemo(
    () => groupOlderRows(ids.slice(undrawn), new Set(olderEnd === undefined ? [] : [olderEnd]), ROWS_PER_GROUP),
    [ids, undrawn, olderEnd],
  );

  const [olderBefore, setOlderBefore] = useState(firstCursor);
  const loading = useRef(false);
  const loadOlder = useCallback(async () => {
    // Nothing is asked for while fetched rows wait to be drawn: the next page could not show sooner.
    if (olderBefore === null || loading.current || undrawn > 0) return;
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
  }, [chatId, olderBefore, onOlder, undrawn]);

  useEffect(() => {
    const el = scroller.current;
    if (undrawn === 0) {
      // The last slice is in; a person still near the top (who may not scroll again) gets the next page.
      if (el && el.scrollTop < LOAD_OLDER_WITHIN_PX) void loadOlder();
      return;
    }
    const frame = requestAnimationFrame(() => {
      // The first row in the list is the first drawn one (found at once, not searched for among thousands).
      const row = el?.querySelector("[data-message-id]");
      if (row) beforeSlice.current = { row, top: row.getBoundingClientRect().top };
      // Drawn at once, so nothing (a scroll) comes between noting the position and drawing the slice.
      const started = performance.now();
      flushSync(() => {
        // The first slice above the rows the chat opened with (or above a list read again in full).
        if (olderEnd === undefined || !ids.includes(olderEnd)) setOlderEnd(ids[undrawn - 1]);
        setFirstDrawnId(nextFirstDrawn(ids, firstDrawnId, sliceRows.current));
      });
      sliceRows.current = nextSliceRows(sliceRows.current, performance.now() - started);
    });
    return () => cancelAnimationFrame(frame);
  }, [ids, firstDrawnId, undrawn, loadOlder, olderEnd]);

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
      <SaveCaseProvider messages={messages}>
        <div className="mx-auto flex max-w-3xl flex-col px-4 py-5">
          {olderBefore !== null || undrawn > 0 ? (
            <p className="pb-4 text-center text-xs text-muted" data-testid="older-messages">
              Older messages load as you scroll up.
            </p>
          ) : null}
          {groups.map((group) => (
            <RowGroup key={group.key} messages={drawn.slice(group.start, group.end)} packages={packages} />
          ))}
          {drawn.slice(recentFrom).map((message) => (
            <Row key={message.id} message={message} packages={packages} skippable />
          ))}
        </div>
      </SaveCaseProvider>
    </div>
  );
}

/**
 * A loaded page of older messages, which the browser lays out, or skips, as one box. It draws again
 * only when its rows change (a slice going in), not with every update of the list.
 */
const RowGroup = memo(
  function RowGroup({ messages, packages }: { messages: UIMessage[]; packages: Record<string, string> }) {
    return (
      <div className="[content-visibility:auto]" style={{ containIntrinsicSize: `auto ${messages.length * ROW_ESTIMATE_PX}px` }}>
        {messages.map((message) => (
          <Row key={message.id} message={message} packages={packages} />
        ))}
      </div>
    );
  },
  (before, after) =>
    before.packages === after.packages && before.messages.length === after.messages.length && before.messages.every((m, i) => m === after.messages[i]),
);

/** One message; `skippable` lets the browser skip it off screen (rows in a group are skipped with it). */
const Row = memo(function Row({ message, packages, skippable = false }: { message: UIMessage; packages: Record<string, string>; skippable?: boolean }) {
  return (
    <div data-message-id={message.id} className={`flex flex-col pb-4 ${skippable ? "[contain-intrinsic-size:auto_120px] [content-visibility:auto]" : ""}`}>
      <MessageItem message={message} packages={packages} />
    </div>
  );
});
