"use client";

import { useCallback, useEffect, useState } from "react";

/** One past try-it call, kept per browser so "run again" survives reloads. */
export interface RecentCall {
  id: string;
  at: string;
  input: unknown;
  outcome: "done" | "error" | "denied" | "timed-out";
  durationMs?: number;
  preview: string;
}

const MAX = 10;
const keyOf = (tool: string) => `toolroom:try-it:${tool}`;

function load(tool: string): RecentCall[] {
  try {
    const raw = window.localStorage.getItem(keyOf(tool));
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? (parsed as RecentCall[]).slice(0, MAX) : [];
  } catch {
    return [];
  }
}

export function useRecentCalls(tool: string) {
  const [calls, setCalls] = useState<RecentCall[]>([]);
  // localStorage exists only in the browser: read after mount, not during the server render.
  useEffect(() => setCalls(load(tool)), [tool]);
  const add = useCallback(
    (call: Omit<RecentCall, "id" | "at">) => {
      setCalls((prev) => {
        const next = [{ ...call, id: crypto.randomUUID(), at: new Date().toISOString() }, ...prev].slice(0, MAX);
        try {
          window.localStorage.setItem(keyOf(tool), JSON.stringify(next));
        } catch {
          /* storage full or disabled: the list still works for this visit */
        }
        return next;
      });
    },
    [tool],
  );
  const clear = useCallback(() => {
    window.localStorage.removeItem(keyOf(tool));
    setCalls([]);
  }, [tool]);
  return { calls, add, clear };
}
