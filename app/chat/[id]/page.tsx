import { notFound } from "next/navigation";
import { databaseFaultOf } from "@/lib/db/faults";
import { getChat } from "@/lib/db/queries";
import { ChatPage } from "../chat-page";

export const metadata = { title: "Chat" };

export default async function ExistingChatPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // A chat id the browser made up but never sent a message for is a new chat, not a 404.
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) notFound();
  // On a database fault the chat is loaded anyway, so ChatPage shows the fault's message.
  const exists = await getChat(id).then(Boolean, (error: unknown) => (databaseFaultOf(error) ? true : Promise.reject(error)));
  return <ChatPage id={id} isNew={!exists} />;
}
