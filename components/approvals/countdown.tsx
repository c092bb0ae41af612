"use client";

import { useEffect, useRef, useState } from "react";

function remaining(until: string): number {
  return Math.max(0, Math.ceil((Date.parse(until) - Date.now()) / 1000));
}

export function formatSeconds(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return m > 0 ? `${m}:${String(s).padStart(2, "0")}` : `${s}s`;
}

/** Time left before the server times the request out; tells the parent once when it reaches zero. */
export function Countdown({ until, onExpire }: { until: string; onExpire?: () => void }) {
  const [left, setLeft] = useState(() => remaining(until));
  const fired = useRef(false);
  // Held in a ref: parents pass a fresh callback each render, and re-running the effect for it
  // would reset `fired` and report the same expiry again.
  const onExpireRef = useRef(onExpire);
  useEffect(() => {
    onExpireRef.current = onExpire;
  }, [onExpire]);
  useEffect(() => {
    fired.current = false;
    const tick = () => {
      const next = remaining(until);
      setLeft(next);
      if (next === 0 && !fired.current) {
        fired.current = true;
        onExpireRef.current?.();
      }
    };
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [until]);
  return (
    <span
      data-testid="approval-countdown"
      aria-label={`${left} seconds left`}
      className="rounded bg-pending/15 px-1.5 py-0.5 font-mono text-xs text-amber-700 tabular dark:text-pending"
    >
      {formatSeconds(left)}
    </span>
  );
}
