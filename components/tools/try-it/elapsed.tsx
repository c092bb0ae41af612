"use client";

import { useEffect, useState } from "react";

/** Running time of the call in flight (running is blue, with elapsed time, everywhere). */
export function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(since);
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(t);
  }, []);
  return <span className="font-mono tabular">{((now - since) / 1000).toFixed(1)} s</span>;
}
