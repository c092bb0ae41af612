"use client";

import { Link2, X } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { fetchJson } from "@/lib/client/fetch-json";

/** The owner's Share: a read-only link, copied when made; Stop sharing makes it answer 404. */
export function ShareLink({ chatId, initialShareId }: { chatId: string; initialShareId: string | null }) {
  const [shareId, setShareId] = useState(initialShareId);
  const [busy, setBusy] = useState(false);
  const act = async (work: () => Promise<void>, failure: string) => {
    setBusy(true);
    try {
      await work();
    } catch (error) {
      toast.error(`${failure}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setBusy(false);
    }
  };
  const share = () =>
    act(async () => {
      const made = await fetchJson<{ shareId: string; path: string }>(`/api/chats/${chatId}/share`, { method: "POST" });
      setShareId(made.shareId);
      const url = new URL(made.path, window.location.origin).toString();
      // The clipboard is refused on a plain-http address that is not localhost; the link is in the toast either way.
      await navigator.clipboard?.writeText(url).catch(() => undefined);
      toast.success(`Read-only link: ${url}`);
    }, "Could not share this chat");
  const stop = () =>
    act(async () => {
      await fetchJson(`/api/chats/${chatId}/share`, { method: "DELETE" });
      setShareId(null);
      toast.success("The link no longer opens this chat.");
    }, "Could not stop sharing");
  return (
    <span className="flex items-center gap-1">
      <Button size="sm" className="gap-1" data-testid="share-chat" disabled={busy} onClick={() => void share()}>
        <Link2 size={12} aria-hidden /> {shareId ? "Copy link" : "Share"}
      </Button>
      {shareId ? (
        <Button size="sm" variant="ghost" aria-label="Stop sharing" data-testid="unshare-chat" disabled={busy} onClick={() => void stop()}>
          <X size={12} />
        </Button>
      ) : null}
    </span>
  );
}
