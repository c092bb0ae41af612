import type { Settings } from "@/lib/settings/schema";
import type { RegisteredTool, Registry } from "@/lib/tools/registry-types";

/** What the last reload did, as the Tools page and the model picker learn it. */
export interface ReloadNotice {
  /** ISO time the reload finished. */
  at: string;
  ok: boolean;
  /** Why a failed reload kept the last good registry and settings. */
  error?: string;
  /** The files whose change set it off (a few, for the notice's tooltip). */
  trigger: string[];
  tools: { added: string[]; removed: string[]; changed: string[] };
  models: { added: string[]; removed: string[] };
  /** Entries skipped now (a plugin that stopped importing shows its diagnostic on the page). */
  skipped: number;
  /** Tools whose module failed to import in this reload: their last good version is kept (marked stale). */
  stale?: string[];
  /** MCP servers connected again (the others kept their connection), with why. */
  reconnected?: { server: string; reason: string }[];
}

/** Everything a person could notice about a tool: a changed module, schema, text or flag. */
function fingerprint(tool: RegisteredTool): string {
  const { name, sourcePackage, version, description, readonly, requiresConfirmation, confirmWhen, enabled, inputSchema, moduleStamp } = tool;
  return JSON.stringify({ name, sourcePackage, version, description, readonly, requiresConfirmation, confirmWhen, enabled, inputSchema, moduleStamp });
}

export function diffTools(before: Registry, after: Registry): ReloadNotice["tools"] {
  const old = new Map(before.tools.map((t) => [t.name, fingerprint(t)]));
  const now = new Map(after.tools.map((t) => [t.name, fingerprint(t)]));
  return {
    added: [...now.keys()].filter((n) => !old.has(n)),
    removed: [...old.keys()].filter((n) => !now.has(n)),
    changed: [...now.keys()].filter((n) => old.has(n) && old.get(n) !== now.get(n)),
  };
}

export function diffModels(before: Settings, after: Settings): ReloadNotice["models"] {
  const old = Object.keys(before.llms);
  const now = Object.keys(after.llms);
  return { added: now.filter((n) => !old.includes(n)), removed: old.filter((n) => !now.includes(n)) };
}

/**
 * The servers of `after` that connected anew where `before` had them (a kept one is the same
 * status object). A failed server is tried again on every reload: failing again is no news.
 */
export function reconnectedServers(before: Registry, after: Registry): NonNullable<ReloadNotice["reconnected"]> {
  return (after.sources ?? []).flatMap((status) => {
    const was = before.sources?.find((s) => s.package === status.package);
    if (!was || was === status || !status.reconnected || (was.state === "failed" && status.state === "failed")) return [];
    return [{ server: status.package.slice("mcp:".length), reason: status.reconnected.reason }];
  });
}

function changedSomething(n: ReloadNotice): boolean {
  return [n.tools.added, n.tools.removed, n.tools.changed, n.models.added, n.models.removed, n.stale ?? [], n.reconnected ?? []].some(
    (list) => list.length > 0,
  );
}

/**
 * The notice the pages show after a reload: a reload that changed nothing (a README saved, a
 * second event of one build) keeps the last notice, unless that one was a failure it recovers from.
 */
export function shownNotice(previous: ReloadNotice | null, next: ReloadNotice): ReloadNotice | null {
  if (next.ok && !changedSomething(next) && (previous === null || previous.ok)) return previous;
  return next;
}
