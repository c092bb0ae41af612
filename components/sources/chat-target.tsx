"use client";

import { useRouter } from "next/navigation";
import { useState, useSyncExternalStore } from "react";
import { Button } from "@/components/ui/button";
import { addToDraft, lastChat, type ComposerDraft } from "@/lib/client/composer-draft";

const noSubscription = () => () => {};

/** "New chat" and, when this tab has shown a chat, "Current chat": where a prompt or an attachment goes. */
export function ChatTargetButtons({
  verb,
  disabled,
  prepare,
}: {
  verb: string;
  disabled?: boolean;
  prepare: () => Promise<Omit<ComposerDraft, "chat"> | null>;
}) {
  const router = useRouter();
  const current = useSyncExternalStore(noSubscription, lastChat, () => null);
  const [busy, setBusy] = useState(false);
  const go = async (chat: string) => {
    setBusy(true);
    try {
      const draft = await prepare();
      if (!draft) return;
      addToDraft({ chat, ...draft });
      router.push(chat === "new" ? "/chat" : `/chat/${chat}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex gap-2">
      <Button variant="primary" data-testid={`${verb}-new-chat`} disabled={disabled || busy} onClick={() => void go("new")}>
        {verb === "insert" ? "Insert into new chat" : "Attach to new chat"}
      </Button>
      {current ? (
        <Button data-testid={`${verb}-current-chat`} disabled={disabled || busy} onClick={() => void go(current)}>
          {verb === "insert" ? "Insert into current chat" : "Attach to current chat"}
        </Button>
      ) : null}
    </div>
  );
}
