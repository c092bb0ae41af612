import { notFound } from "next/navigation";
import { ChatPage } from "../chat-page";

export const metadata = { title: "Chat" };

export default async function ExistingChatPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) notFound();
  return <ChatPage id={id} isNew={false} />;
}
