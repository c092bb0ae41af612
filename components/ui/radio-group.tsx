"use client";

import * as RadioGroupPrimitive from "@radix-ui/react-radio-group";
import type { ComponentProps } from "react";
import { cn } from "./cn";

/** A segmented radio group on Radix: one tab stop, arrow keys move and select. */
export function SegmentedRadioGroup({ className, ...props }: ComponentProps<typeof RadioGroupPrimitive.Root>) {
  return (
    <RadioGroupPrimitive.Root
      orientation="horizontal"
      className={cn("inline-flex overflow-hidden rounded-md border border-border text-xs", className)}
      {...props}
    />
  );
}

export function SegmentedRadioItem({ className, ...props }: ComponentProps<typeof RadioGroupPrimitive.Item>) {
  return (
    <RadioGroupPrimitive.Item
      className={cn(
        "px-2 py-1 text-muted hover:bg-subtle disabled:opacity-60 data-[state=checked]:bg-accent data-[state=checked]:text-white data-[state=checked]:hover:bg-accent",
        className,
      )}
      {...props}
    />
  );
}
