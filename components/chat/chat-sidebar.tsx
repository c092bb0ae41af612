"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Check, MessageSquarePlus, Pencil, Trash2, X } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { Button, buttonVariants } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { ConfirmDialog } from "@/components/ui/dialog";
import { FetchError, fetchJson } from "@/lib/client/fetch-json";
import { queryKeys } from "@/lib/client/query-keys";

interface ChatSummary {
  id: string;
  title: string;
  updatedAt: string;
  toolMode: string;
}

async function fetchChats(): Promise<ChatSummary[]> {
  return (await fetchJson<{ chats: ChatSummary[] }>("/api/chats")).chats;
}

export function ChatSidebar({ activeId }: { activeId: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const { data: chats, isLoading, error } = useQuery({ queryKey: queryKeys.chats.list(), queryFn: fetchChats });
  const [editing, setEditing] = useState<string | null>(null);
  const [title, setTitle] = useState("");
  const [deleting, setDeleting] = useState<ChatSummary | null>(null);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: queryKeys.chats.all });

  const rename = useMutation({
    mutationFn: ({ id, title }: { id: string; title: string }) => fetchJson(`/api/chats/${id}`, { method: "PATCH", json: { title } }),
    onSuccess: () => {
      setEditing(null);
      void invalidate();
    },
    onError: (e) => toast.error(e.message),
  });
  const remove = useMutation({
    mutationFn: async (id: string) => {
      try {
        await fetchJson(`/api/chats/${id}`, { method: "DELETE" });
      } catch (error) {
        // Already gone (another tab deleted it): the list refresh shows that.
        if (!(error instanceof FetchError && error.status === 404)) throw error;
      }
    },
    onSuccess: (_data, id) => {
      void invalidate();
      if (id === activeId) router.push("/chat");
    },
    onError: (e) => toast.error(e.message),
  });

  return (
    <aside className="flex w-64 shrink-0 flex-col border-r border-border bg-panel max-md:hidden" aria-label="Chat history">
      <div className="p-2">
        <Link href="/chat" data-testid="new-chat" className={buttonVariants({ className: "flex gap-2" })}>
          <MessageSquarePlus size={14} aria-hidden /> New chat
        </Link>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto px-2 pb-2" data-testid="chat-history">
        {isLoading ? <p className="px-2 py-1 text-xs text-muted">Loading chats…</p> : null}
        {error ? <p className="px-2 py-1 text-xs text-denied">{error.message}</p> : null}
        {chats && chats.length === 0 ? (
          <p className="px-2 py-1 text-xs text-muted" data-testid="chat-history-empty">
            No chats yet. Ask something below to start one.
          </p>
        ) : null}
        <ul className="space-y-0.5">
          {chats?.map((chat) => (
            <li
              key={chat.id}
              data-testid="chat-history-item"
              className={cn("group flex items-center rounded-md text-sm", chat.id === activeId ? "bg-accent-soft" : "hover:bg-subtle")}
            >
              {editing === chat.id ? (
                <form
                  className="flex flex-1 items-center gap-1 p-1"
                  onSubmit={(e) => {
                    e.preventDefault();
                    if (title.trim()) rename.mutate({ id: chat.id, title: title.trim() });
                  }}
                >
                  <input
                    autoFocus
                    value={title}
                    onChange={(e) => setTitle(e.target.value)}
                    onKeyDown={(e) => e.key === "Escape" && setEditing(null)}
                    aria-label="Chat title"
                    data-testid="chat-rename-input"
                    className="h-6 min-w-0 flex-1 rounded border border-border bg-bg px-1 text-sm"
                  />
                  <Button type="submit" variant="ghost" size="icon" aria-label="Save title" className="p-0.5 text-done">
                    <Check size={14} />
                  </Button>
                  <Button variant="ghost" size="icon" aria-label="Cancel" onClick={() => setEditing(null)} className="p-0.5">
                    <X size={14} />
                  </Button>
                </form>
              ) : (
                <>
                  <Link href={`/chat/${chat.id}`} className="min-w-0 flex-1 truncate px-2 py-1.5" title={chat.title}>
                    {chat.title}
                  </Link>
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={`Rename ${chat.title}`}
                    onClick={() => {
                      setEditing(chat.id);
                      setTitle(chat.title);
                    }}
                    className="opacity-0 group-hover:opacity-100 hover:bg-transparent focus:opacity-100"
                  >
                    <Pencil size={13} />
                  </Button>
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={`Delete ${chat.title}`}
                    data-testid="chat-delete"
                    onClick={() => setDeleting(chat)}
                    className="opacity-0 group-hover:opacity-100 hover:bg-transparent hover:text-denied focus:opacity-100"
                  >
                    <Trash2 size={13} />
                  </Button>
                </>
              )}
            </li>
          ))}
        </ul>
      </div>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this chat?"
        description={`“${deleting?.title ?? ""}” and its tool calls are removed for good.`}
        confirmLabel="Delete"
        destructive
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        testId="chat-delete-confirm"
      />
    </aside>
  );
}
