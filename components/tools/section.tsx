import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";

/** A titled block of the tool page; `boxed` sets it on a panel (the try-it column). */
export function Section({ title, id, boxed, children }: { title: string; id: string; boxed?: boolean; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} data-testid={`section-${id}`} className={cn(boxed && "rounded-lg border border-border bg-panel p-4")}>
      <h2 id={`${id}-title`} className="mb-2.5 text-xs font-semibold tracking-wide text-muted uppercase">
        {title}
      </h2>
      {children}
    </section>
  );
}
