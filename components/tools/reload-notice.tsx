import { RefreshCw, TriangleAlert } from "lucide-react";
import type { ReloadNotice } from "@/lib/server/runtime/reload-diff";
import { clock, reloadSummary } from "./reload-text";

/** A reload that is still running: one that takes long (a plugin import waiting on its timeout) is seen, not silent. */
export function ReloadingBar({ reloading }: { reloading: { since: string; trigger: string[] } | null }) {
  if (!reloading) return null;
  return (
    <div role="status" data-testid="reloading-notice" className="flex items-center gap-2 rounded-lg border border-running/40 bg-panel px-3 py-2 text-sm">
      <RefreshCw size={14} className="animate-spin text-running" aria-hidden />
      <span suppressHydrationWarning>Reloading tools since {clock(reloading.since)}… the tools below stay in use until it finishes.</span>
      {reloading.trigger.length ? <span className="min-w-0 font-mono text-xs break-all text-muted">{reloading.trigger.join(", ")}</span> : null}
    </div>
  );
}

/** The last live reload: what it changed, or why it failed and that the last good tools are in use. */
export function ReloadNoticeBar({ notice }: { notice: ReloadNotice | null }) {
  if (!notice) return null;
  const names = [...notice.tools.added.map((n) => `+${n}`), ...notice.tools.removed.map((n) => `−${n}`), ...notice.tools.changed.map((n) => `~${n}`)];
  if (!notice.ok) {
    return (
      <div role="alert" data-testid="reload-notice" data-ok="false" className="rounded-lg border border-denied/40 bg-red-50/60 p-3 text-sm dark:bg-red-950/20">
        <div className="flex items-center gap-2 font-medium text-denied">
          <TriangleAlert size={14} aria-hidden />
          <span suppressHydrationWarning>Reload failed at {clock(notice.at)}: the tools and settings below are the last ones that loaded.</span>
        </div>
        <p className="mt-1 font-mono text-xs break-all whitespace-pre-wrap">{notice.error}</p>
      </div>
    );
  }
  return (
    <div
      role="status"
      data-testid="reload-notice"
      data-ok="true"
      className="flex flex-wrap items-center gap-x-2 gap-y-1 rounded-lg border border-border bg-panel px-3 py-2 text-sm"
      title={notice.trigger.length ? `changed: ${notice.trigger.join(", ")}` : undefined}
    >
      <RefreshCw size={14} className="text-running" aria-hidden />
      {/* The server renders the time in its zone, the browser in the person's: the browser's wins. */}
      <span suppressHydrationWarning>
        Reloaded {clock(notice.at)}: {reloadSummary(notice)}
      </span>
      {names.length ? <span className="min-w-0 font-mono text-xs break-all text-muted">{names.join(" ")}</span> : null}
    </div>
  );
}
