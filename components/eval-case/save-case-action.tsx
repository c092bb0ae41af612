"use client";

import type { UIMessage } from "ai";
import { FlaskConical } from "lucide-react";
import { createContext, useCallback, useContext, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { isToolPart, toolNameOf } from "@/lib/chat/history";
import { INVALID_CALL_TOOL_NAME } from "@/lib/chat/invalid-call-tool";
import { draftCase } from "@/lib/evals/case-draft";
import { SaveCaseDialog } from "./save-case-dialog";

/** The prompt an assistant message answered; a stable function, so message rows do not draw again for it. */
const PromptOf = createContext<((messageId: string) => string | undefined) | null>(null);

/** Offers "Save as eval case" on the assistant messages inside, reading their prompts from `messages`. */
export function SaveCaseProvider({ messages, children }: { messages: UIMessage[]; children: ReactNode }) {
  const current = useRef(messages);
  useLayoutEffect(() => {
    current.current = messages;
  }, [messages]);
  const promptOf = useCallback((messageId: string) => {
    const list = current.current;
    const at = list.findIndex((m) => m.id === messageId);
    for (let i = at - 1; i >= 0; i--) {
      const m = list[i]!;
      if (m.role === "user") return m.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");
    }
    return undefined;
  }, []);
  return <PromptOf.Provider value={promptOf}>{children}</PromptOf.Provider>;
}

/** The calls an assistant message made, as expected calls (a call that could not be parsed is no call). */
function callsOf(message: UIMessage) {
  return message.parts.flatMap((part) =>
    isToolPart(part) && part.state !== "input-streaming" && toolNameOf(part) !== INVALID_CALL_TOOL_NAME ? [{ tool: toolNameOf(part), input: part.input }] : [],
  );
}

/** The button under an assistant message (inside a SaveCaseProvider), and its dialog. */
export function SaveCaseAction({ message }: { message: UIMessage }) {
  const promptOf = useContext(PromptOf);
  const [draft, setDraft] = useState<string | null>(null);
  if (!promptOf) return null;
  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        className="mt-1 h-6 gap-1 px-1.5 text-[11px]"
        data-testid="save-case-open"
        onClick={() => setDraft(draftCase(promptOf(message.id) ?? "", callsOf(message)))}
      >
        <FlaskConical size={12} aria-hidden /> Save as eval case
      </Button>
      {draft !== null ? <SaveCaseDialog open draft={draft} onOpenChange={(open) => !open && setDraft(null)} /> : null}
    </>
  );
}
