import type { ComponentProps } from "react";
import { cn } from "./cn";

/** A dense table; numbers align right with `numeric` cells. */
export function Table({ className, ...props }: ComponentProps<"table">) {
  return <table className={cn("w-full border-collapse text-sm", className)} {...props} />;
}

export function TableHeader({ className, ...props }: ComponentProps<"thead">) {
  return <thead className={cn("border-b border-border bg-subtle/60 text-left text-xs text-muted", className)} {...props} />;
}

export function TableBody({ className, ...props }: ComponentProps<"tbody">) {
  return <tbody className={cn("divide-y divide-border", className)} {...props} />;
}

export function TableRow(props: ComponentProps<"tr">) {
  return <tr {...props} />;
}

export function TableHead({ className, numeric, ...props }: ComponentProps<"th"> & { numeric?: boolean }) {
  return <th className={cn("px-3 py-2 font-medium whitespace-nowrap", numeric && "text-right", className)} {...props} />;
}

export function TableCell({ className, numeric, ...props }: ComponentProps<"td"> & { numeric?: boolean }) {
  return <td className={cn("px-3 py-1.5", numeric && "text-right font-mono text-xs tabular", className)} {...props} />;
}
