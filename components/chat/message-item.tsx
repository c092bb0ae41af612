"use client";

import type { UIMessage } from "ai";
import { Paperclip } from "lucide-react";
import { memo } from "react";
import { SaveCaseAction } from "@/components/eval-case/save-case-action";
import { Markdown } from "@/components/ui/markdown";
import { readMetadata, type Interruption } from "@/lib/chat/metadata";
import { isToolPart, toolNameOf } from "@/lib/chat/history";
import { toolModeLabel } from "./call-status";
import { ToolCallCard } from "./tool-call-card";

/** How a cut answer is labelled where it stops. */
const INTERRUPTION_TEXT: Record<Interruption, string> = {
  running: "still being written (or the server stopped) — reload to see more",
  stopped: "stopped by you",
  disconnected: "connection lost — the answer stops here",
  crash: "interrupted: the server stopped",
};

interface MessageItemProps {
  message: UIMessage;
  packages: Record<string, string>;
}

/**
 * A row draws again only when its message is a new object (or the tools' packages change). useChat
 * replaces the streaming message with a fresh copy on every update and leaves the others alone, so
 * a finished message keeps its object and its row is skipped. Comparing contents instead would miss
 * updates: the SDK first pushes the message it keeps writing to, so the "previous" props can
 * already hold the new content.
 */
export const MessageItem = memo(MessageItemView, (before, after) => before.packages === after.packages && before.message === after.message);

function MessageItemView({ message, packages }: MessageItemProps) {
  const meta = readMetadata(message.metadata);
  if (message.role === "user") {
    return (
      <div data-testid="message-user" className="ml-auto max-w-[80%] rounded-lg bg-accent-soft px-3 py-2 whitespace-pre-wrap">
        {message.parts.map((p, i) =>
          p.type === "text" ? (
            <span key={i}>{p.text}</span>
          ) : p.type === "file" ? (
            // An attached resource: its content went to the model; here it is a chip.
            <span
              key={i}
              data-testid="message-attachment"
              title={p.mediaType}
              className="mr-1 mb-1 inline-flex items-center gap-1 rounded border border-border bg-panel px-1.5 py-0.5 font-mono text-xs"
            >
              <Paperclip size={11} aria-hidden /> {p.filename ?? p.mediaType}
            </span>
          ) : null,
        )}
      </div>
    );
  }
  return (
    <div data-testid="message-assistant" className="max-w-full">
      {meta.notice ? (
        <p data-testid="message-notice" role="status" className="mb-1 text-xs text-muted italic">
          {meta.notice}
        </p>
      ) : null}
      {message.parts.map((part, i) => {
        if (part.type === "text") return part.text ? <Markdown key={i} text={part.text} /> : null;
        if (isToolPart(part))
          return (
            <ToolCallCard
              key={part.toolCallId}
              part={part}
              meta={meta.calls?.[part.toolCallId]}
              sourcePackage={packages[toolNameOf(part)]}
              mode={toolModeLabel(meta)}
            />
          );
        return null;
      })}
      {meta.interrupted ? (
        <p data-testid="message-interrupted" data-interrupted={meta.interrupted} className="mt-1 text-xs text-muted italic">
          {INTERRUPTION_TEXT[meta.interrupted] ?? `interrupted (${meta.interrupted})`}
        </p>
      ) : null}
      {meta.refused ? (
        <p
          data-testid="message-refused"
          role="alert"
          className="mt-2 rounded-md border border-pending/50 bg-pending/5 px-3 py-2 text-sm text-amber-700 dark:text-pending"
        >
          {meta.refused}
        </p>
      ) : null}
      {meta.error ? (
        <p data-testid="message-error" role="alert" className="mt-2 rounded-md border border-denied/50 bg-denied/5 px-3 py-2 text-sm text-denied">
          {meta.error}
        </p>
      ) : null}
      {meta.mcpClient ? (
        <p className="mt-1 font-mono text-[11px] text-muted" data-testid="called-by">
          called over MCP by {meta.mcpClient}
        </p>
      ) : null}
      {meta.model ? (
        <p className="mt-1 font-mono text-[11px] text-muted" data-testid="answered-by">
          answered by {meta.model}
        </p>
      ) : null}
      <SaveCaseAction message={message} />
    </div>
  );
}
