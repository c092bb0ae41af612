"use client";

import { Download, Eye, EyeOff } from "lucide-react";
import { useState } from "react";
import { bytes } from "./format";
import { fileHref } from "./filter-runs";
import { Section } from "./section";
import type { RunFile } from "./types";
import { useRawFile } from "./use-raw-file";
import { Button, buttonVariants } from "@/components/ui/button";

/** Every artifact of the run as recorded: view inline or download. */
export function FilesSection({ files, override }: { files: RunFile[]; override: string | null }) {
  return (
    <Section title="Raw files" testId="files-section">
      {files.length === 0 ? (
        <p className="rounded-lg border border-dashed border-border p-4 text-sm text-muted">No artifact files in this folder.</p>
      ) : (
        <ul className="divide-y divide-border rounded-lg border border-border bg-panel">
          {files.map((f) => (
            <FileRow key={f.rel} file={f} override={override} />
          ))}
        </ul>
      )}
    </Section>
  );
}

function FileRow({ file, override }: { file: RunFile; override: string | null }) {
  const [open, setOpen] = useState(false);
  const raw = useRawFile(file.rel, override, open);
  return (
    <li data-testid="file-row" data-file={file.name}>
      <div className="flex items-center gap-3 px-3 py-1.5">
        <span className="min-w-0 flex-1 truncate font-mono text-xs" title={file.rel}>
          {file.name}
        </span>
        <span className="w-20 text-right font-mono text-xs text-muted tabular">{bytes(file.size)}</span>
        <Button
          variant="ghost"
          size="sm"
          onClick={() => setOpen((o) => !o)}
          data-testid="file-view"
          aria-expanded={open}
          className="h-auto gap-1 rounded px-1.5 py-0.5"
        >
          {open ? <EyeOff size={12} aria-hidden /> : <Eye size={12} aria-hidden />}
          {open ? "Hide" : "View"}
        </Button>
        <a
          href={fileHref(file.rel, override, true)}
          download
          data-testid="file-download"
          className={buttonVariants({ variant: "ghost", size: "sm", className: "h-auto gap-1 rounded px-1.5 py-0.5" })}
        >
          <Download size={12} aria-hidden /> Download
        </a>
      </div>
      {open ? (
        <div className="border-t border-border bg-bg/50 px-3 py-2" data-testid="file-content">
          {raw.isPending ? (
            <p className="text-xs text-muted">Loading {file.name}…</p>
          ) : raw.error ? (
            <p role="alert" className="font-mono text-xs text-denied">
              Cannot load {file.rel}: {raw.error.message}
            </p>
          ) : (
            <>
              {raw.data.note ? <p className="mb-1 text-xs text-amber-700 dark:text-pending">{raw.data.note}</p> : null}
              <pre className="max-h-96 overflow-auto font-mono text-[11.5px] leading-snug whitespace-pre">{raw.data.text}</pre>
            </>
          )}
        </div>
      ) : null}
    </li>
  );
}
