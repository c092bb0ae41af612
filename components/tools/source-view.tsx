import { FileCode2 } from "lucide-react";
import type { SourceResult } from "@/lib/server/tools-page/source-code";
import { ScrollToLine } from "./scroll-to-line";

// Shiki writes both themes' colours as CSS variables; these rules pick one per theme, number the
// lines and tint the defining export.
const CODE = [
  "relative max-h-[32rem] overflow-auto rounded-md border border-border bg-panel text-[12.5px] leading-5",
  "[&_pre]:!bg-transparent [&_pre]:py-2 [&_code]:block [&_code]:min-w-max [&_code]:[counter-reset:line]",
  "[&_.line]:inline-block [&_.line]:w-full [&_.line]:pr-4 [&_.line]:before:mr-4 [&_.line]:before:inline-block [&_.line]:before:w-10 [&_.line]:before:pr-1 [&_.line]:before:text-right [&_.line]:before:text-muted/70 [&_.line]:before:content-[counter(line)] [&_.line]:before:[counter-increment:line]",
  "[&_.line.hl]:bg-accent-soft/70 [&_.line.hl]:shadow-[inset_3px_0_0_var(--color-accent)]",
  "[&_span]:text-(--shiki-light) dark:[&_span]:text-(--shiki-dark) [&_.line]:before:!text-muted",
].join(" ");

function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** The entry module's code, highlighted on the server, with the defining export marked. */
export function SourceView({ source, html, exportName }: { source: SourceResult; html: string | null; exportName: string }) {
  if (!source.ok) {
    return (
      <p className="rounded-md border border-denied/40 p-3 text-sm text-denied" data-testid="source-error">
        The source cannot be shown: {source.error}
      </p>
    );
  }
  const range = source.exportRange;
  return (
    <div data-testid="source-view">
      <div className="mb-1.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted">
        <span className="inline-flex items-center gap-1 font-mono text-fg" data-testid="source-file">
          <FileCode2 size={13} aria-hidden /> {source.rel}
        </span>
        {source.compiledFrom ? (
          <span data-testid="source-compiled">
            built to <span className="font-mono">{source.compiledFrom}</span> (its source map points here)
          </span>
        ) : null}
        <span className="tabular">{size(source.bytes)}</span>
        {range ? (
          <a href={`#L${range.start}`} className="text-accent hover:underline" data-testid="source-export">
            <span className="font-mono">{exportName}</span> at line {range.start}
          </a>
        ) : (
          <span data-testid="source-export-missing">
            <span className="font-mono">{exportName}</span> not found in the file (re-exported or generated?)
          </span>
        )}
        {source.truncated ? <span className="text-amber-700 dark:text-pending">showing the first {size(source.code.length)} only</span> : null}
      </div>
      {html ? (
        <ScrollToLine line={range?.start ?? null} className={CODE}>
          <div dangerouslySetInnerHTML={{ __html: html }} />
        </ScrollToLine>
      ) : (
        <pre className={CODE}>{source.code}</pre>
      )}
    </div>
  );
}
