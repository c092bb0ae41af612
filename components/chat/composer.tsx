"use client";

import { RotateCcw, Send, Square } from "lucide-react";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";

export interface ComposerProps {
  streaming: boolean;
  disabled?: string | false;
  canRegenerate: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  onRegenerate: () => void;
}

/** Enter sends, Shift+Enter adds a line, Stop while streaming. */
export function Composer({ streaming, disabled, canRegenerate, onSend, onStop, onRegenerate }: ComposerProps) {
  const [text, setText] = useState("");
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
