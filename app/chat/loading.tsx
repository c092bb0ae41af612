import { Skeleton } from "@/components/ui/skeleton";

/** While the server reads a chat's history (and the tool registry, on a first start). */
export default function ChatLoading() {
  return (
    <div className="flex min-h-0 flex-1" data-testid="chat-loading" aria-busy="true">
      <div className="w-64 shrink-0 space-y-2 border-r border-border bg-panel p-2 max-md:hidden">
        <Skeleton className="h-8" />
        {Array.from({ length: 5 }, (_, i) => (
          <Skeleton key={i} className="h-6" />
        ))}
      </div>
      <div className="flex min-w-0 flex-1 flex-col">
        <div className="flex h-12 items-center gap-3 border-b border-border px-4">
          <Skeleton className="h-4 w-48" />
          <Skeleton className="ml-auto h-6 w-40" />
        </div>
        <div className="mx-auto w-full max-w-3xl flex-1 space-y-4 px-4 py-5">
          <Skeleton className="ml-auto h-10 w-2/3" />
          <Skeleton className="h-24 w-5/6" />
          <p className="text-xs text-muted">Loading the conversation…</p>
        </div>
        <div className="border-t border-border p-3">
          <Skeleton className="mx-auto h-16 max-w-3xl" />
        </div>
      </div>
    </div>
  );
}
