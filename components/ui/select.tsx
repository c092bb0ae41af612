import type { ComponentProps } from "react";
import { cn } from "./cn";

/**
 * A native select styled like the other controls: the platform's own keyboard and screen-reader
 * behaviour, and what tests drive with `selectOption`.
 */
export function Select({ className, size = "md", ...props }: Omit<ComponentProps<"select">, "size"> & { size?: "sm" | "md" }) {
  return (
    <select
      className={cn(
        "rounded-md border border-border bg-panel text-fg focus:border-accent focus:outline-none disabled:opacity-60 aria-invalid:border-denied",
        size === "sm" ? "h-7 px-1.5 text-xs" : "h-8 px-2 text-sm",
        className,
      )}
      {...props}
    />
  );
}
