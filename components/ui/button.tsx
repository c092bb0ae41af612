import type { ComponentProps } from "react";
import { cn } from "./cn";

const VARIANTS = {
  primary: "bg-accent font-medium text-white hover:opacity-90",
  outline: "border border-border bg-panel hover:bg-subtle",
  danger: "border border-denied/50 text-denied hover:bg-denied/10",
  ghost: "text-muted hover:bg-subtle hover:text-fg",
  link: "text-accent hover:underline",
  /** No colours of its own: the caller styles it (a heat-map cell, a card header). */
  plain: "",
} as const;

const BOX = "inline-flex items-center justify-center gap-1.5 whitespace-nowrap";
const SIZES = {
  sm: `${BOX} h-7 px-2 text-xs`,
  md: `${BOX} h-8 px-3 text-sm`,
  lg: `${BOX} h-9 px-3 text-sm`,
  icon: `${BOX} p-1`,
  /** No box of its own: the caller lays the button out (a card header, a tree row, inline text). */
  bare: "",
} as const;

export type ButtonVariant = keyof typeof VARIANTS;
export type ButtonSize = keyof typeof SIZES;

/** The classes of a button, for a link that should look like one. */
export function buttonVariants({
  variant = "outline",
  size = "md",
  className,
}: { variant?: ButtonVariant; size?: ButtonSize; className?: string } = {}): string {
  return cn("rounded-md disabled:opacity-50", VARIANTS[variant], SIZES[size], className);
}

/** A button that is `type="button"` unless told otherwise, so it never submits a form by accident. */
export function Button({ variant, size, className, type = "button", ...props }: ComponentProps<"button"> & { variant?: ButtonVariant; size?: ButtonSize }) {
  return <button type={type} className={buttonVariants({ variant, size, className })} {...props} />;
}
