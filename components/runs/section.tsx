import type { ReactNode } from "react";

/** A titled block of the run page; `actions` sit right of the title. */
export function Section({
  title,
  children,
  actions,
  testId,
  note,
}: {
  title: string;
  children: ReactNode;
  actions?: ReactNode;
  testId?: string;
  note?: ReactNode;
}) {
  return (
    <section data-testid={testId} className="space-y-2">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h2 className="text-sm font-semibold tracking-tight">{title}</h2>
        {note ? <span className="text-xs text-muted">{note}</span> : null}
        {actions ? <div className="ml-auto flex items-center gap-2">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}

/** A label/value list; a null value is "not recorded", which must never look like an empty string or 0. */
export function FactList({ facts, testId, columns }: { facts: { label: string; value: ReactNode | null }[]; testId?: string; columns?: boolean }) {
  if (columns) {
    // Dense summary: label over value, several per row, so a header stays a few lines tall.
    return (
      <dl data-testid={testId} className="grid grid-cols-2 gap-x-6 gap-y-3 sm:grid-cols-3 lg:grid-cols-4">
        {facts.map((f) => (
          <div key={f.label} className="min-w-0" data-testid="fact">
            <dt className="text-[11px] tracking-wide text-muted uppercase">{f.label}</dt>
            <dd className="mt-0.5 font-mono text-xs leading-5 break-words">{f.value === null ? <NotRecorded /> : f.value}</dd>
          </div>
        ))}
      </dl>
    );
  }
  return (
    <dl data-testid={testId} className="grid grid-cols-[minmax(8rem,max-content)_1fr] gap-x-4 gap-y-1 text-sm">
      {facts.map((f) => (
        <div key={f.label} className="contents" data-testid="fact">
          <dt className="font-mono text-xs leading-5 text-muted">{f.label}</dt>
          <dd className="min-w-0 font-mono text-xs leading-5 break-words">{f.value === null ? <NotRecorded /> : f.value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function NotRecorded() {
  return <span className="text-muted italic">not recorded</span>;
}
