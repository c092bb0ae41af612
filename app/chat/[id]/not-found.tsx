import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";

export default function ChatNotFound() {
  return (
    <div className="p-6" data-testid="chat-not-found">
      <h1 className="text-lg font-semibold">Chat not found</h1>
      <EmptyState title="No chat with this id is stored">
        It may have been deleted, or the link comes from another Toolroom database.{" "}
        <Link href="/chat" className="text-accent underline">
          Start a new chat
        </Link>
        .
      </EmptyState>
    </div>
  );
}
