import { notFound } from "next/navigation";
import { SharedChat } from "@/components/chat/shared-chat";
import { sharedChatView } from "@/lib/server/chat/chat-view";
import { getRegistry } from "@/lib/server/runtime/registry";
import { registryJson } from "@/lib/tools/registry-json";

export const metadata = { title: "Shared chat" };

/** A chat's read-only link: anyone signed in who has it reads the chat; nothing on it acts. */
export default async function SharedChatPage({ params }: { params: Promise<{ shareId: string }> }) {
  const { shareId } = await params;
  if (!/^[A-Za-z0-9_-]{24}$/.test(shareId)) notFound();
  const [view, registry] = await Promise.all([sharedChatView(shareId), getRegistry()]);
  if (!view) notFound();
  return <SharedChat title={view.title} sharedBy={view.sharedBy} messages={view.messages} tools={registryJson(registry)} />;
}
