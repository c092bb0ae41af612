"use client";

import { useCallback, useState } from "react";
import { useMounted } from "@/components/ui/use-mounted";

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
  // localStorage exists only in the browser: nothing in the server render, then the stored list
  // until this visit changes it.
  const mounted = useMounted();
  const [changed, setChanged] = useState<{ tool: string; calls: RecentCall[] } | null>(null);
  const calls = !mounted ? [] : changed?.tool === tool ? changed.calls : load(tool);
  const setCalls = useCallback(
    (update: (prev: RecentCall[]) => RecentCall[]) => setChanged((c) => ({ tool, calls: update(c?.tool === tool ? c.calls : load(tool)) })),
    [tool],
  );
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
    [tool, setCalls],
  );
  const clear = useCallback(() => {
    window.localStorage.removeItem(keyOf(tool));
    setCalls(() => []);
  }, [tool, setCalls]);
  return { calls, add, clear };
}
