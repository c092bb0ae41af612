import type { ReactNode } from "react";

/** Every list's empty state says what to do next. */
export function EmptyState({ title, children, testId }: { title: string; children?: ReactNode; testId?: string }) {
  return (
    <div data-testid={testId} className="mx-auto my-12 max-w-md rounded-lg border border-dashed border-border p-6 text-center">
      <p className="font-medium">{title}</p>
      {children ? <div className="mt-2 text-sm text-muted">{children}</div> : null}
    </div>
  );
}
