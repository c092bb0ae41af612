import { cn } from "./cn";

/** A grey placeholder bar for a view whose data is still on its way. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden className={cn("animate-pulse rounded bg-subtle", className)} />;
}
