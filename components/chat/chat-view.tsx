"use client";

import { useMayAct } from "@/components/auth/person-context";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { UIMessage } from "ai";
import { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import { toast } from "sonner";
import { ApprovalDialog } from "@/components/approvals/approval-dialog";
import { ElicitationDialog } from "@/components/approvals/elicitation-dialog";
import { useElicitations } from "@/components/approvals/use-elicitations";
import { TraceAside } from "@/components/trace/trace-aside";
import { EmptyState } from "@/components/ui/empty-state";
import { readMetadata } from "@/lib/chat/metadata";
import { awaitsAnswerAfterTimeout } from "@/lib/chat/timed-out";
import { draftFor, rememberChat, type ComposerDraft } from "@/lib/client/composer-draft";
import { FetchError, fetchJson } from "@/lib/client/fetch-json";
import { queryKeys } from "@/lib/client/query-keys";
import type { ModelChoice } from "@/lib/chat/models";
import type { ToolJson } from "@/lib/tools/registry-json";
import { approvalRequestOf } from "@/components/approvals/approval-request";
import { approvalPrompt } from "./approval-prompt";
import { pendingCalls } from "./call-status";
import { ChatHeader } from "./chat-header";
import { ChatSidebar } from "./chat-sidebar";
import { Composer } from "./composer";
import { useShowChatModelInFooter } from "@/components/shell/footer-model";
import { MessageList } from "./message-list";
import { ChatIdContext } from "./running-call";
import { useChatSession, type ChatConfig } from "./use-chat-session";

export interface ChatViewProps {
  chatId: string;
  title: string;
  exists: boolean;
  /** The latest messages; older ones load as the person scrolls up. */
  initialMessages: UIMessage[];
  /** The cursor for the messages before `initialMessages`; null when there are none. */
  olderBefore: number | null;
  initialConfig: ChatConfig;
  /** Its read-only link's secret; null: not shared. */
  shareId: string | null;
  initialGrants: string[];
  models: ModelChoice[];
  tools: Record<string, ToolJson>;
  /** Why the server could not load this chat (a database fault), shown until a request succeeds. */
  loadError?: string;
}

const noSubscription = () => () => {};

/** A new chat is titled by its first message, as the server titles it. */
function firstUserText(messages: UIMessage[]): string | undefined {
  const text = messages
    .find((m) => m.role === "user")
    ?.parts.map((p) => (p.type === "text" ? p.text : ""))
    .join(" ")
    .trim();
  if (!text) return undefined;
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

export function ChatView(props: ChatViewProps) {
  const queryClient = useQueryClient();
  const mayChat = useMayAct("member");
  const [config, setConfig] = useState(props.initialConfig);
  const session = useChatSession(props.chatId, props.initialMessages, config);
  useShowChatModelInFooter(props.models.find((m) => m.ref === config.modelRef)?.label ?? config.modelRef);
  const { messages, status, stop, sendMessage, regenerate, approve, deny } = session;
  const serverError = session.serverError ?? (status === "ready" && messages.length === 0 ? props.loadError : undefined);
  const streaming = status === "submitted" || status === "streaming";
  const exists = props.exists || messages.length > 0;
  const pending = pendingCalls(messages);
  // A prompt or resources sent here from the Sources view (sessionStorage: none in the server render).
  const incoming = useSyncExternalStore(
    noSubscription,
    () => draftFor(props.chatId, !props.exists),
    () => null,
  );
  const [sentDraft, setSentDraft] = useState<ComposerDraft | null>(null);
  const [removed, setRemoved] = useState<string[]>([]);
  const draft = incoming && incoming !== sentDraft ? incoming : null;
  useEffect(() => rememberChat(props.chatId), [props.chatId]);
  // A running tool may ask the person something (MCP elicitation, a plugin's ctx.elicit).
  const elicitation = useElicitations(props.chatId, streaming);
  const { setMessages } = session;
  const prependOlder = useCallback(
    (older: UIMessage[]) =>
      setMessages((shown) => {
        // A reload of the whole chat (showServerCopy) may already hold them.
        const have = new Set(shown.map((m) => m.id));
        return [...older.filter((m) => !have.has(m.id)), ...shown];
      }),
    [setMessages],
  );

  const grantsQuery = useQuery({
    queryKey: queryKeys.chats.grants(props.chatId),
    queryFn: async () => {
      try {
        return (await fetchJson<{ grants: string[] }>(`/api/chats/${props.chatId}`)).grants;
      } catch (error) {
        // 404: the first turn failed before the server stored the chat, so it has no grants yet.
        if (error instanceof FetchError && error.status === 404) return [];
        toast.error(`Could not refresh this chat's grants: ${error instanceof Error ? error.message : String(error)}`);
        throw error;
      }
    },
    initialData: props.initialGrants,
    enabled: false,
  });
  const grants = grantsQuery.data;
  const { refetch: refetchGrants } = grantsQuery;
  // A finished turn may have added a grant ("for this chat"): read them again.
  useEffect(() => {
    if (status === "ready" && exists) void refetchGrants();
  }, [status, exists, refetchGrants]);

  const changeConfig = async (change: Partial<ChatConfig>) => {
    setConfig((c) => ({ ...c, ...change }));
    if (!exists) return;
    try {
      await fetchJson(`/api/chats/${props.chatId}`, { method: "PATCH", json: change });
      void queryClient.invalidateQueries({ queryKey: queryKeys.chats.all });
    } catch (error) {
      toast.error(`Could not save the change: ${(error as Error).message}`);
    }
  };

  const revokeGrant = async (tool: string) => {
    try {
      await fetchJson(`/api/chats/${props.chatId}/grants/${encodeURIComponent(tool)}`, { method: "DELETE" });
    } catch (error) {
      toast.error(`Could not revoke the grant for ${tool}: ${(error as Error).message}`);
    }
    await refetchGrants();
  };

  // An expired approval is the server's to time out, not a denial to send: reload the chat as the
  // server shows it, where the call now reads "timed out".
  const showServerCopy = async () => {
    try {
      const { messages: stored } = await fetchJson<{ messages: UIMessage[] }>(`/api/chats/${props.chatId}`);
      session.setMessages(stored);
      // The model answers a timed-out call as it would a denial (the server checks it is one).
      if (awaitsAnswerAfterTimeout(stored.at(-1))) await session.sendMessage();
    } catch (error) {
      toast.error(`Could not reload this chat: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  // The chat's dialog also edits the arguments, so it gets the tool's schema.
  const waiting = approvalRequestOf(messages, props.tools);
  const request = waiting ? { ...waiting, inputSchema: props.tools[waiting.toolName]?.input_schema } : null;

  const answerAll = async (answer: (approvalId: string) => void | PromiseLike<void>) => {
    for (const { part } of pending) await answer(part.approval!.id);
  };

  const lastIsAssistant = messages.at(-1)?.role === "assistant";

  return (
    <div className="flex min-h-0 flex-1">
      <ChatSidebar activeId={props.chatId} />
      <section className="flex min-h-0 min-w-0 flex-1 flex-col" aria-label="Chat">
        <ChatHeader
          title={props.exists ? props.title : (firstUserText(messages) ?? "New chat")}
          chatExists={exists}
          chatId={props.chatId}
          shareId={props.shareId}
          config={config}
          models={props.models}
          grants={grants}
          locked={streaming}
          onChange={(change) => void changeConfig(change)}
          onRevokeGrant={(tool) => void revokeGrant(tool)}
        />
        {messages.length === 0 ? (
          <div className="min-h-0 flex-1 overflow-y-auto" data-testid="message-list">
            <div className="mx-auto max-w-3xl px-4 py-5">
              <EmptyState title="Start a conversation" testId="chat-empty">
                <p>
                  Try “list files in lib”, “read README.md” or “list runs”. The offline model is a scripted stand-in that picks a tool from your words. To call
                  a tool exactly, type its name and its arguments as JSON:
                </p>
                <pre className="mt-2 rounded bg-subtle px-3 py-2 text-left font-mono text-xs text-fg" data-testid="steering-syntax">
                  {'tool_name {json}\nread_file {"path": "README.md"}'}
                </pre>
                {approvalPrompt(props.tools) ? (
                  <p className="mt-3">
                    To see how a tool asks before it changes anything:{" "}
                    <button
                      type="button"
                      className="rounded border border-pending/60 bg-amber-50/60 px-2 py-0.5 font-mono text-xs text-fg hover:bg-amber-100/70 focus-visible:ring-2 focus-visible:ring-accent focus-visible:outline-none dark:bg-amber-950/20 dark:hover:bg-amber-950/40"
                      data-testid="suggested-approval-prompt"
                      disabled={streaming}
                      onClick={() => void sendMessage({ text: approvalPrompt(props.tools)! })}
                    >
                      {approvalPrompt(props.tools)}
                    </button>
                  </p>
                ) : null}
                <p className="mt-2">For a real model, use “Add a model…” in the model picker above.</p>
              </EmptyState>
            </div>
          </div>
        ) : (
          <ChatIdContext value={props.chatId}>
            <MessageList chatId={props.chatId} messages={messages} tools={props.tools} olderBefore={props.olderBefore} onOlder={prependOlder} />
          </ChatIdContext>
        )}
        {status === "submitted" ? (
          <p className="mx-auto w-full max-w-3xl px-4 pb-2 text-xs text-running" data-testid="thinking">
            Waiting for the model…
          </p>
        ) : null}
        {/* An error the stream delivered is already shown under the message that carries it. */}
        {serverError && readMetadata(messages.at(-1)?.metadata).error !== serverError ? (
          <div className="mx-auto w-full max-w-3xl px-4 pb-2">
            <p role="alert" data-testid="chat-error" className="rounded-md border border-denied/50 bg-denied/5 px-3 py-2 text-sm text-denied">
              {serverError}
            </p>
          </div>
        ) : null}
        <Composer
          key={draft?.seq ?? 0}
          initialText={draft?.text}
          attachments={draft?.attachments?.filter((a) => !removed.includes(a.uri))}
          onRemoveAttachment={(uri) => setRemoved((r) => [...r, uri])}
          streaming={streaming}
          disabled={
            !mayChat
              ? "You can read chats as a viewer; an admin can give you the member role to chat."
              : request
                ? "A tool call is waiting for your approval."
                : false
          }
          canRegenerate={lastIsAssistant && !streaming}
          onSend={(text) => {
            const files = (draft?.attachments ?? [])
              .filter((a) => !removed.includes(a.uri))
              .map((a) => ({ type: "file" as const, mediaType: a.mediaType, filename: a.uri, url: a.url }));
            setSentDraft(draft);
            void sendMessage({ text, ...(files.length ? { files } : {}) });
          }}
          onStop={() => void stop()}
          onRegenerate={() => void regenerate()}
        />
      </section>
      <TraceAside chatId={props.chatId} exists={exists} version={`${messages.length}:${status}`} />
      <ApprovalDialog
        request={streaming || !mayChat ? null : request}
        allowGrant
        chatId={props.chatId}
        onApprove={({ grant, editedInput }) => request && void approve(request.approvalId, grant, editedInput)}
        onDeny={(reason) => request && void deny(request.approvalId, reason)}
        {...(pending.length > 1
          ? {
              // One step's calls are answered together; the browser sends once the last one is answered.
              onApproveAll: () => void answerAll((id) => approve(id, false)),
              onDenyAll: () => void answerAll((id) => deny(id, undefined)),
            }
          : {})}
        onExpire={() => void showServerCopy()}
      />
      <ElicitationDialog
        request={elicitation.request}
        busy={elicitation.busy}
        serverErrors={elicitation.serverErrors}
        onAnswer={(a) => void elicitation.answer(a)}
      />
    </div>
  );
}
