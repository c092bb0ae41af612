import { clsx, type ClassValue } from "clsx";
import { twMerge } from "tailwind-merge";

/** Joins class names, skipping falsy ones; of conflicting Tailwind utilities the last one wins. */
export function cn(...parts: ClassValue[]): string {
  return twMerge(clsx(parts));
}
