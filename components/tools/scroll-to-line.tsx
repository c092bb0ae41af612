"use client";

import { useEffect, useRef, type ReactNode } from "react";

/**
 * The code box, scrolled so the defining export sits near its top. Only the box scrolls: moving
 * the whole page would hide the docs the reader came for.
 */
export function ScrollToLine({ line, children, className }: { line: number | null; children: ReactNode; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const box = ref.current;
    if (!box || !line) return;
    const target = box.querySelector<HTMLElement>(`#L${line}`);
    if (target) box.scrollTop = Math.max(0, target.offsetTop - 24);
  }, [line]);
  return (
    <div ref={ref} className={className} data-testid="source-scroll">
      {children}
    </div>
  );
}
