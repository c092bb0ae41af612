"use client";

import { useChat } from "@ai-sdk/react";
import { useQueryClient } from "@tanstack/react-query";
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from "ai";
import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import { toast } from "sonner";
import { errorFromResponse, fetchJson } from "@/lib/client/fetch-json";
import { queryKeys } from "@/lib/client/query-keys";
import type { TextProtocol } from "@/lib/chat/text-protocol/types";

export interface ChatConfig {
  modelRef: string;
  toolMode: "native" | "text";
  /** Used in text mode; sent with every message so the server stores the chat's choice. */
  textProtocol: TextProtocol;
  supervised: boolean;
}

/**
 * The transport to Toolroom's route, made once per chat: it reads the chat's settings and the grants
 * to send through refs, at send time, so a change of model or mode applies to the next message.
 */
function chatTransport(config: RefObject<ChatConfig>, grantIds: RefObject<Set<string>>) {
  return new DefaultChatTransport<UIMessage>({
    api: "/api/chat",
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      // The stream itself is read by the SDK; only a refusal goes through the shared error reading.
      if (!response.ok) throw await errorFromResponse(response, "POST /api/chat");
      return response;
    },
    prepareSendMessagesRequest: ({ id, messages, trigger, messageId }) => {
      const { modelRef, toolMode, textProtocol, supervised } = config.current;
      const body = {
        id,
        message: messages.at(-1),
        trigger,
        messageId,
        model: modelRef,
        toolMode,
        textProtocol,
        supervised,
        grantApprovalIds: [...grantIds.current],
      };
      grantIds.current.clear();
      return { body };
    },
  });
}

/** useChat wired to Toolroom's route: the server keeps the history, so only the last message travels. */
export function useChatSession(chatId: string, initialMessages: UIMessage[], config: ChatConfig) {
  const queryClient = useQueryClient();
  const configRef = useRef(config);
  useEffect(() => {
    configRef.current = config;
  }, [config]);
  const grantIds = useRef(new Set<string>());
  const [serverError, setServerError] = useState<string | null>(null);

  // The compiler cannot see that the transport reads these refs only when a request is sent, never
  // while rendering; useChat keeps the first transport it is given, so the refs are how it stays current.
  // eslint-disable-next-line react-hooks/refs
  const [transport] = useState(() => chatTransport(configRef, grantIds));

  const chat = useChat({
    id: chatId,
    messages: initialMessages,
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    onError: (error) => {
      setServerError(error.message);
      toast.error(error.message);
    },
    onFinish: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.chats.all });
      if (window.location.pathname !== `/chat/${chatId}`) window.history.replaceState(null, "", `/chat/${chatId}`);
    },
  });

  const approve = useCallback(
    (approvalId: string, grant: boolean) => {
      if (grant) grantIds.current.add(approvalId);
      setServerError(null);
      return chat.addToolApprovalResponse({ id: approvalId, approved: true });
    },
    [chat],
  );
  const deny = useCallback(
    (approvalId: string, reason: string | undefined) => {
      setServerError(null);
      return chat.addToolApprovalResponse({ id: approvalId, approved: false, ...(reason ? { reason } : {}) });
    },
    [chat],
  );

  const stop = useCallback(async () => {
    // Only a streaming answer is the last message; before it starts the last one is an older answer.
    const answering = chat.status === "streaming";
    // The server is told first, so the stored answer says "stopped by you", not "connection lost".
    await fetchJson(`/api/chats/${encodeURIComponent(chatId)}/stop`, { method: "POST" }).catch(() => undefined);
    await chat.stop();
    // Marked on screen at once, as the server stores it.
    if (answering)
      chat.setMessages((messages) => {
        const last = messages.at(-1);
        if (last?.role !== "assistant") return messages;
        const metadata = { ...(typeof last.metadata === "object" ? last.metadata : {}), interrupted: "stopped" };
        return [...messages.slice(0, -1), { ...last, metadata }];
      });
  }, [chat, chatId]);

  return { ...chat, stop, approve, deny, serverError, clearServerError: () => setServerError(null) };
}
