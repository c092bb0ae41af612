import { getLoadedSettings, setLoadedSettings } from "@/lib/settings";
import { startLiveReload, type LiveReload } from "./live-reload";
import { followToolListsWith, getRegistry, loadServerRegistry, setRegistry } from "./registry";
import { shownNotice, type ReloadNotice } from "./reload-diff";

const state = globalThis as unknown as { __toolroomLiveReload?: LiveReload; __toolroomReloadNotice?: ReloadNotice };

/** The last reload's notice, for the Tools page and the shell's refresh; null before the first. */
export function lastReload(): ReloadNotice | null {
  return state.__toolroomReloadNotice ?? null;
}

/** The reload running now, or null (none, or live reload not started yet). */
export function reloadInProgress(): { since: string; trigger: string[] } | null {
  return state.__toolroomLiveReload?.inProgress() ?? null;
}

/** The one-line log of a reload, as the server prints it. */
export function reloadLogLine(n: ReloadNotice): string {
  if (!n.ok) return `toolroom: reload failed, still using the last good tools and settings: ${n.error}`;
  const parts = [
    n.tools.added.length ? `+${n.tools.added.join(", +")}` : "",
    n.tools.removed.length ? `-${n.tools.removed.join(", -")}` : "",
    n.tools.changed.length ? `changed ${n.tools.changed.join(", ")}` : "",
    n.models.added.length ? `models +${n.models.added.join(", +")}` : "",
    n.models.removed.length ? `models -${n.models.removed.join(", -")}` : "",
    n.stale?.length ? `kept the last good ${n.stale.join(", ")} (its module failed to import; see /tools)` : "",
    n.reconnected?.length ? `reconnected MCP ${n.reconnected.map((r) => `${r.server} (${r.reason})`).join(", ")}` : "",
  ].filter(Boolean);
  return `toolroom: reloaded tools and settings (${parts.join("; ") || "no tool changed"})`;
}

/** Starts watching plugins and settings for the server process (once, however often it is called). */
export async function startServerLiveReload(): Promise<void> {
  if (state.__toolroomLiveReload) return;
  const registry = await getRegistry();
  const live = startLiveReload({
    current: { settings: getLoadedSettings(), registry },
    buildRegistry: (loaded, previous, reconnect) => loadServerRegistry({ settings: loaded.settings, previous, reconnect }),
    apply: (loaded, next) => {
      setLoadedSettings(loaded);
      setRegistry(next);
    },
    onReload: (notice) => {
      state.__toolroomReloadNotice = shownNotice(state.__toolroomReloadNotice ?? null, notice) ?? undefined;
      (notice.ok ? console.log : console.error)(reloadLogLine(notice));
    },
  });
  state.__toolroomLiveReload = live;
  // An MCP server that changes its tools is a reload too: the pages hear of it by its notice.
  followToolListsWith((trigger) => live.reload(trigger));
}

/**
 * Reads the registry again now, connecting `server` again for `why` (a sign-in or sign-out
 * changes its token, not its entry, and its tools may change): through live reload when it runs,
 * so the pages hear of it; else directly. The other servers keep their connections.
 */
export async function reloadRegistryNow(trigger: string[], server: string, why: string): Promise<void> {
  const reconnect = { [server]: why };
  if (state.__toolroomLiveReload) {
    await state.__toolroomLiveReload.reload(trigger, reconnect);
    return;
  }
  const previous = await getRegistry();
  setRegistry(await loadServerRegistry({ previous, reconnect }));
  await previous.close?.();
}
