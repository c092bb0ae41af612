import { TriangleAlert } from "lucide-react";

/** A request to the server that failed: its words (timed out, stopped, not supported, the server's error). */
export function SectionError({ error }: { error: string }) {
  return (
    <p
      role="alert"
      data-testid="source-section-error"
      className="flex items-start gap-1.5 rounded-md border border-denied/40 bg-denied/5 px-2 py-1.5 text-sm text-denied"
    >
      <TriangleAlert size={14} aria-hidden className="mt-0.5 shrink-0" /> {error}
    </p>
  );
}
