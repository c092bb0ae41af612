import path from "node:path";
import { defaultFilePaths } from "@/lib/settings/layers";
import { loadSettings, type LoadedSettings, type LoadOptions } from "@/lib/settings/load";
import { findPluginPackages } from "@/lib/tools/manifest";
import type { Registry } from "@/lib/tools/registry-types";
import { diffModels, diffTools, reconnectedServers, type ReloadNotice } from "./reload-diff";
import { createWatcher, type WatchTarget } from "./watch";

/** How deep inside a plugin package edits are noticed (src/, dist/, lib/tools/…). */
const PLUGIN_DEPTH = 3;
const TRIGGER_FILES_KEPT = 5;

export interface LiveReloadOptions {
  /** How settings are read (cwd, --config, environment), as at start. */
  settingsOptions?: LoadOptions;
  /** The state in use now: the reload replaces it only when the new one loads. */
  current: { settings: LoadedSettings; registry: Registry };
  /**
   * Builds the registry for new settings (the server's is `loadRegistry`) from the one in use;
   * `reconnect` names MCP servers to connect again although their entry did not change, with why.
   */
  buildRegistry(loaded: LoadedSettings, previous: Registry, reconnect: Record<string, string>): Promise<Registry>;
  /** Makes a new state the process's (the caches routes read). */
  apply(loaded: LoadedSettings, registry: Registry): void;
  onReload?(notice: ReloadNotice): void;
  debounceMs?: number;
}

export interface LiveReload {
  /** Resolves once the first set of folders is watched. */
  ready: Promise<void>;
  /** Reloads now (what a change calls after its debounce); resolves with the notice. */
  reload(trigger?: string[], reconnect?: Record<string, string>): Promise<ReloadNotice>;
  /** The reload running now (since: ISO time), or null: /tools shows one that takes long. */
  inProgress(): { since: string; trigger: string[] } | null;
  close(): void;
}

/**
 * Watches the settings files, `node_modules`' top level and every plugin package's folder, and on
 * a change reads settings and the registry again. The new state replaces the old one only when
 * both load; otherwise the last good state stays in use and the notice says why.
 */
export function startLiveReload(options: LiveReloadOptions): LiveReload {
  const cwd = options.settingsOptions?.cwd ?? process.cwd();
  let current = options.current;
  let running: Promise<ReloadNotice> | null = null;
  let runningSince: { since: string; trigger: string[] } | null = null;
  let again: { trigger: string[]; reconnect: Record<string, string>; done: Promise<ReloadNotice>; resolve(n: ReloadNotice): void } | null = null;

  const watcher = createWatcher((files) => void reload(files), options.debounceMs);

  const targets = async (loaded: LoadedSettings): Promise<WatchTarget[]> => {
    const settingsFiles = [
      ...(options.settingsOptions?.files ?? defaultFilePaths(cwd)),
      ...[options.settingsOptions?.configPath ?? (options.settingsOptions?.env ?? process.env).TOOLROOM_CONFIG].filter((f): f is string => Boolean(f)),
    ].map((f) => path.resolve(cwd, f));
    const nodeModules = path.join(cwd, "node_modules");
    const pluginPaths = loaded.settings.plugins.paths.map((p) => path.resolve(cwd, p));
    const packages = await findPluginPackages([nodeModules], pluginPaths);
    return [
      ...settingsFiles.map((f) => ({ dir: path.dirname(f), depth: 0, names: [path.basename(f)] })),
      { dir: nodeModules, depth: 0 },
      // A plugins.paths folder of packages gains and loses packages; a package folder is also watched below.
      ...pluginPaths.map((dir) => ({ dir, depth: 1 })),
      ...packages.map((p) => ({ dir: p.dir, depth: PLUGIN_DEPTH })),
      // A folder that is deleted cannot be watched; its parent sees it come back (only its own name counts).
      ...[...pluginPaths, ...packages.map((p) => p.dir)].map((dir) => ({ dir: path.dirname(dir), depth: 0, names: [path.basename(dir)] })),
    ];
  };

  const once = async (trigger: string[], reconnect: Record<string, string>): Promise<ReloadNotice> => {
    const base = { at: "", trigger: trigger.slice(0, TRIGGER_FILES_KEPT), tools: { added: [], removed: [], changed: [] }, models: { added: [], removed: [] } };
    let notice: ReloadNotice;
    try {
      const loaded = loadSettings(options.settingsOptions);
      const registry = await options.buildRegistry(loaded, current.registry, reconnect);
      const previous = current;
      current = { settings: loaded, registry };
      options.apply(loaded, registry);
      notice = {
        ...base,
        at: new Date().toISOString(),
        ok: true,
        tools: diffTools(previous.registry, registry),
        models: diffModels(previous.settings.settings, loaded.settings),
        skipped: registry.diagnostics.length,
        stale: registry.tools.filter((t) => t.stale && !previous.registry.get(t.name)?.stale).map((t) => t.name),
        reconnected: reconnectedServers(previous.registry, registry),
      };
      // The old registry's MCP servers stop once nothing new can reach them (those it handed over stay up).
      await previous.registry.close?.().catch(() => {});
    } catch (error) {
      notice = { ...base, at: new Date().toISOString(), ok: false, error: (error as Error).message, skipped: current.registry.diagnostics.length };
    }
    watcher.watch(await targets(current.settings).catch(() => []));
    options.onReload?.(notice);
    return notice;
  };

  // One reload at a time; changes that arrive during one are folded into a single next one, and
  // a caller asking meanwhile (a sign-in reconnecting its server) waits for that next one.
  const reload = (trigger: string[] = [], reconnect: Record<string, string> = {}): Promise<ReloadNotice> => {
    if (running) {
      if (!again) {
        let resolve!: (n: ReloadNotice) => void;
        const done = new Promise<ReloadNotice>((r) => (resolve = r));
        again = { trigger: [], reconnect: {}, done, resolve };
      }
      again.trigger.push(...trigger);
      Object.assign(again.reconnect, reconnect);
      return again.done;
    }
    runningSince = { since: new Date().toISOString(), trigger: trigger.slice(0, TRIGGER_FILES_KEPT) };
    running = once(trigger, reconnect).finally(() => {
      running = null;
      runningSince = null;
      if (again) {
        const next = again;
        again = null;
        void reload(next.trigger, next.reconnect).then((notice) => next.resolve(notice));
      }
    });
    return running;
  };

  const ready = targets(current.settings).then(
    (t) => watcher.watch(t),
    () => {},
  );
  return { ready, reload, inProgress: () => runningSince, close: () => watcher.close() };
}
