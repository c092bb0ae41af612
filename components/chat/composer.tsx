"use client";

import { Paperclip, RotateCcw, Send, Square, X } from "lucide-react";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import type { DraftAttachment } from "@/lib/client/composer-draft";

export interface ComposerProps {
  streaming: boolean;
  disabled?: string | false;
  canRegenerate: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  onRegenerate: () => void;
  /** Text to start with (a prompt inserted from the Sources view). */
  initialText?: string;
  /** Resources that go with the next message, shown as chips. */
  attachments?: DraftAttachment[];
  onRemoveAttachment?: (uri: string) => void;
}

/** Enter sends, Shift+Enter adds a line, Stop while streaming. */
export function Composer({ streaming, disabled, canRegenerate, onSend, onStop, onRegenerate, initialText, attachments, onRemoveAttachment }: ComposerProps) {
  const [text, setText] = useState(initialText ?? "");
  const ref = useRef<HTMLTextAreaElement>(null);
  const send = () => {
    const value = text.trim();
    if (!value || streaming || disabled) return;
    onSend(value);
    setText("");
  };
  return (
    <div className="border-t border-border bg-panel p-3">
      {disabled ? (
        <p className="mb-2 text-xs text-amber-700 dark:text-pending" data-testid="composer-blocked">
          {disabled}
        </p>
      ) : null}
      {attachments?.length ? (
        <ul className="mb-2 flex flex-wrap gap-1.5" aria-label="Attachments">
          {attachments.map((a) => (
            <li
              key={a.uri}
              data-testid="composer-attachment"
              className="inline-flex items-center gap-1 rounded border border-border bg-subtle px-1.5 py-0.5 font-mono text-xs"
              title={`${a.uri} (${a.mediaType})`}
            >
              <Paperclip size={11} aria-hidden /> {a.name}
              <button type="button" aria-label={`Remove ${a.name}`} className="text-muted hover:text-fg" onClick={() => onRemoveAttachment?.(a.uri)}>
                <X size={11} aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex items-end gap-2">
        <textarea
          ref={ref}
          data-testid="composer-input"
          aria-label="Message"
          rows={2}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              send();
            }
          }}
          placeholder='Ask something, e.g. "list files in lib"  (Enter sends, Shift+Enter for a new line)'
          className="min-h-[2.75rem] flex-1 resize-y rounded-md border border-border bg-bg px-3 py-2 text-sm focus:border-accent focus:outline-none"
        />
        {streaming ? (
          <Button size="lg" data-testid="composer-stop" onClick={onStop}>
            <Square size={14} aria-hidden /> Stop
          </Button>
        ) : (
          <>
            {canRegenerate ? (
              <Button
                size="lg"
                data-testid="composer-regenerate"
                onClick={onRegenerate}
                disabled={Boolean(disabled)}
                title="Answer the last message again"
                className="px-2.5"
              >
                <RotateCcw size={14} aria-label="Regenerate" />
              </Button>
            ) : null}
            <Button variant="primary" size="lg" data-testid="composer-send" onClick={send} disabled={!text.trim() || Boolean(disabled)}>
              <Send size={14} aria-hidden /> Send
            </Button>
          </>
        )}
      </div>
    </div>
  );
}
