import { generateId } from "ai";
import { ChatPage } from "./chat-page";

export const metadata = { title: "Chat" };

export default function NewChatPage() {
  return <ChatPage id={generateId()} isNew />;
}
