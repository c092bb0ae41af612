"use client";

import type { UIMessage } from "ai";
import { Eye } from "lucide-react";
import { PersonProvider } from "@/components/auth/person-context";
import type { ToolJson } from "@/lib/tools/registry-json";
import { MessageList } from "./message-list";

const noOlder = () => {};

/**
 * A shared chat, read-only: every message comes with the page (no older page to ask for), and it is
 * drawn as a viewer sees it, so nothing on it offers to act.
 */
export function SharedChat({
  title,
  sharedBy,
  messages,
  tools,
}: {
  title: string;
  sharedBy: string | null;
  messages: UIMessage[];
  tools: Record<string, ToolJson>;
}) {
  return (
    <section className="flex min-h-0 flex-1 flex-col" aria-label="Shared chat">
      <div className="flex items-center gap-3 border-b border-border bg-panel px-4 py-2">
        <h1 className="min-w-24 flex-1 truncate text-sm font-semibold" data-testid="chat-title">
          {title}
        </h1>
        <span className="flex items-center gap-1 text-xs text-muted" data-testid="shared-note">
          <Eye size={13} aria-hidden /> Read-only{sharedBy ? `, shared by ${sharedBy}` : ""}
        </span>
      </div>
      <PersonProvider person={{ email: "", role: "viewer" }}>
        <MessageList chatId="" messages={messages} tools={tools} olderBefore={null} onOlder={noOlder} />
      </PersonProvider>
    </section>
  );
}
