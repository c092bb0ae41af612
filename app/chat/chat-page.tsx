import { notFound } from "next/navigation";
import { ChatView } from "@/components/chat/chat-view";
import { asPagePerson } from "@/lib/server/auth/page-person";
import { chatFirstPage, defaultChatConfig, modelChoices } from "@/lib/server/chat/chat-view";
import { getRegistry } from "@/lib/server/runtime/registry";
import { databaseFaultOf } from "@/lib/db/faults";
import { registryJson } from "@/lib/tools/registry-json";

/**
 * Shared by /chat (a new chat, its id made here) and /chat/[id]: the server reads the history, the
 * client streams. The browser shows /chat/<id> only once the server has stored that chat, so an
 * id with no chat behind it is a deleted chat or a wrong link: not found. Only the latest messages
 * come with the page; the list asks for older ones as the person scrolls up.
 */
export async function ChatPage({ id, isNew }: { id: string; isNew: boolean }) {
  let loadError: string | undefined;
  // A database fault shows in the chat, in the words the API uses, instead of a bare error page.
  const loading = isNew
    ? Promise.resolve(null)
    : asPagePerson(() => chatFirstPage(id)).catch((error: unknown) => {
        loadError = databaseFaultOf(error)?.message;
        if (!loadError) throw error;
        return null;
      });
  const [detail, registry] = await Promise.all([loading, getRegistry()]);
  if (!isNew && !detail && !loadError) notFound();
  const defaults = defaultChatConfig();
  const config = detail ? { ...detail.chat, textProtocol: detail.chat.textProtocol ?? defaults.textProtocol } : defaults;
  return (
    <ChatView
      key={id}
      chatId={id}
      title={detail?.chat.title ?? "New chat"}
      exists={Boolean(detail)}
      initialMessages={detail?.messages ?? []}
      initialConfig={{ modelRef: config.modelRef, toolMode: config.toolMode, textProtocol: config.textProtocol, supervised: config.supervised }}
      olderBefore={detail?.olderBefore ?? null}
      shareId={detail?.chat.shareId ?? null}
      initialGrants={detail?.grants ?? []}
      models={modelChoices()}
      tools={registryJson(registry)}
      loadError={loadError}
    />
  );
}
