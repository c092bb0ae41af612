"use client";

import { Download } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import type { ResourcePart } from "@/lib/server/sources/source-actions";

function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const fileName = (uri: string) => uri.split(/[/:]/).filter(Boolean).at(-1) ?? "resource";

/** A read resource's parts: text (bounded by the server), images and audio inline, other binary as a download. */
export function ResourceViewer({ parts }: { parts: ResourcePart[] }) {
  if (!parts.length) return <p className="text-sm text-muted">The server returned no content for this resource.</p>;
  return (
    <div className="space-y-3" data-testid="resource-content">
      {parts.map((part, i) => (
        <figure key={`${part.uri}-${i}`} className="rounded-md border border-border" data-kind={part.kind} data-testid="resource-part">
          <figcaption className="flex items-center gap-2 border-b border-border px-2 py-1 text-xs text-muted">
            <span className="truncate font-mono">{part.uri}</span>
            {part.mimeType ? <Badge>{part.mimeType}</Badge> : null}
            <span className="ml-auto tabular-nums">{part.kind === "text" ? `${part.length.toLocaleString()} characters` : size(part.bytes)}</span>
          </figcaption>
          {part.kind === "text" ? (
            <>
              <pre className="max-h-96 overflow-auto p-2 font-mono text-xs whitespace-pre-wrap" data-testid="resource-text">
                {part.text}
              </pre>
              {part.truncated ? (
                <p className="border-t border-border px-2 py-1 text-xs text-muted">
                  Cut: only the first {part.text.length.toLocaleString()} characters are shown.
                </p>
              ) : null}
            </>
          ) : !part.data ? (
            <p className="p-2 text-sm text-muted">Too large to show here ({size(part.bytes)}).</p>
          ) : part.kind === "image" ? (
            // eslint-disable-next-line @next/next/no-img-element -- a data: URL from the server, not an asset Next could optimise
            <img
              data-testid="resource-image"
              src={`data:${part.mimeType};base64,${part.data}`}
              alt={part.uri}
              className="max-h-80 max-w-full bg-subtle p-2 [image-rendering:pixelated]"
            />
          ) : part.kind === "audio" ? (
            <audio data-testid="resource-audio" controls src={`data:${part.mimeType};base64,${part.data}`} className="m-2" />
          ) : (
            <a
              data-testid="resource-download"
              href={`data:${part.mimeType ?? "application/octet-stream"};base64,${part.data}`}
              download={fileName(part.uri)}
              className="m-2 inline-flex items-center gap-1 text-sm text-accent underline"
            >
              <Download size={14} aria-hidden /> Download {fileName(part.uri)} ({size(part.bytes)})
            </a>
          )}
        </figure>
      ))}
    </div>
  );
}

/** The parts as attachments for a chat message: each a data: URL, as the AI SDK's file parts carry content. */
export function attachmentsOf(parts: ResourcePart[], name: string): { uri: string; name: string; mediaType: string; url: string }[] {
  return parts.flatMap((part) => {
    const mediaType = part.mimeType ?? (part.kind === "text" ? "text/plain" : "application/octet-stream");
    if (part.kind === "text") {
      const bytes = new TextEncoder().encode(part.text);
      let binary = "";
      for (const byte of bytes) binary += String.fromCharCode(byte);
      return [{ uri: part.uri, name, mediaType, url: `data:${mediaType};base64,${btoa(binary)}` }];
    }
    return part.data ? [{ uri: part.uri, name, mediaType, url: `data:${mediaType};base64,${part.data}` }] : [];
  });
}
