"use client";

import type { UIMessage } from "ai";
import { ExternalLink } from "lucide-react";
import Link from "next/link";
import { useEffect, useRef } from "react";
import { ApprovalDialog } from "@/components/approvals/approval-dialog";
import { ElicitationDialog } from "@/components/approvals/elicitation-dialog";
import { useElicitations } from "@/components/approvals/use-elicitations";
import { MessageItem } from "@/components/chat/message-item";
import { useChatSession } from "@/components/chat/use-chat-session";
import { SaveCaseProvider } from "@/components/eval-case/save-case-action";
import { Badge } from "@/components/ui/badge";
import { fetchJson } from "@/lib/client/fetch-json";
import type { ComparisonDetail } from "@/lib/server/compare/compare-service";
import type { ToolJson } from "@/lib/tools/registry-json";
import { approvalRequestOf } from "@/components/approvals/approval-request";
import { columnLetter } from "./column-letter";

/** What a column tells the page: its messages (for the summary) and whether it waits for a person. */
export interface ColumnState {
  messages: UIMessage[];
  busy: boolean;
  waiting: boolean;
  error?: string;
}

export interface CompareColumnProps {
  index: number;
  column: ComparisonDetail["columns"][number];
  prompts: string[];
  tools: Record<string, ToolJson>;
  packages: Record<string, string>;
  /** This column's approval dialog is the one shown (one dialog at a time across columns). */
  dialogTurn: boolean;
  onState: (index: number, state: ColumnState) => void;
}

/**
 * One column: an ordinary chat session against /api/chat. It sends the comparison's prompts one
 * after another — the next once the previous turn has ended with nothing waiting for approval —
 * so a reopened comparison carries on where it stopped and a finished one sends nothing.
 */
export function CompareColumn({ index, column, prompts, tools, packages, dialogTurn, onState }: CompareColumnProps) {
  const session = useChatSession(column.chatId, column.messages, column.config);
  const { messages, status, sendMessage, approve, deny, serverError } = session;
  const request = approvalRequestOf(messages, tools);
  const waiting = request !== null;
  const busy = status === "submitted" || status === "streaming";
  // A running tool of this column may ask the person something (MCP elicitation, a plugin's ctx.elicit).
  const elicitation = useElicitations(column.chatId, busy);
  const sent = useRef(-1);
  const userCount = messages.filter((m) => m.role === "user").length;
  const next = prompts[userCount];

  useEffect(() => {
    if (status !== "ready" || next === undefined || waiting || serverError || sent.current >= userCount) return;
    sent.current = userCount;
    void sendMessage({ text: next });
  }, [status, next, waiting, serverError, userCount, sendMessage]);

  useEffect(() => {
    onState(index, { messages, busy, waiting, error: serverError ?? undefined });
  }, [index, messages, busy, waiting, serverError, onState]);

  const showServerCopy = async () => {
    session.setMessages((await fetchJson<{ messages: UIMessage[] }>(`/api/chats/${column.chatId}`)).messages);
  };

  const label = `${columnLetter(index)} · ${column.label}`;
  return (
    <section
      aria-label={`Column ${label}`}
      data-testid="compare-column"
      data-column={index}
      className="flex max-h-[60vh] min-h-64 w-[min(30rem,85vw)] shrink-0 flex-col rounded-lg border border-border bg-panel lg:w-auto lg:min-w-80 lg:flex-1 lg:shrink"
    >
      <header className="flex items-center gap-2 border-b border-border px-3 py-2">
        <span className="flex size-5 items-center justify-center rounded bg-accent-soft font-mono text-xs font-semibold">{columnLetter(index)}</span>
        <h2 className="min-w-0 flex-1 truncate font-mono text-xs" data-testid="compare-column-label">
          {column.label}
        </h2>
        {request ? <Badge tone="pending">waiting for approval</Badge> : busy ? <Badge tone="running">running</Badge> : null}
        {serverError ? <Badge tone="denied">error</Badge> : null}
        <Link href={`/chat/${column.chatId}`} className="text-muted hover:text-fg" aria-label={`Open column ${columnLetter(index)} as a chat`}>
          <ExternalLink size={13} />
        </Link>
      </header>
      <div
        className="min-h-0 flex-1 overflow-y-auto px-3 py-3 text-sm focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent"
        tabIndex={0}
        aria-label={`Column ${columnLetter(index)} messages`}
      >
        <div className="flex flex-col gap-3">
          <SaveCaseProvider messages={messages}>
            {messages.map((message) => (
              <MessageItem key={message.id} message={message} packages={packages} />
            ))}
          </SaveCaseProvider>
          {status === "submitted" ? <p className="text-xs text-running">Waiting for the model…</p> : null}
          {serverError ? (
            <p role="alert" data-testid="compare-column-error" className="rounded-md border border-denied/50 bg-denied/5 px-3 py-2 text-xs text-denied">
              {serverError}
            </p>
          ) : null}
        </div>
      </div>
      <ApprovalDialog
        request={dialogTurn && !busy ? request : null}
        allowGrant
        columnLabel={`Column ${label}`}
        onApprove={({ grant }) => request && void approve(request.approvalId, grant)}
        onDeny={(reason) => request && void deny(request.approvalId, reason)}
        onExpire={() => void showServerCopy()}
      />
      <ElicitationDialog
        request={elicitation.request}
        busy={elicitation.busy}
        serverErrors={elicitation.serverErrors}
        columnLabel={`Column ${label}`}
        onAnswer={(a) => void elicitation.answer(a)}
      />
    </section>
  );
}
