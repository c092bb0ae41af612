import path from "node:path";
import { builtinEntries } from "@/lib/builtins";
import { connectMcpSources } from "@/lib/mcp/client-source";
import { getSettings } from "@/lib/settings";
import type { Settings } from "@/lib/settings/schema";
import { buildRegistry, closeSources, type ToolSource } from "@/lib/tools/registry";
import type { Registry } from "@/lib/tools/registry-types";
import { toolroomPackage } from "@/lib/server/tools-page/package-info";
import { createToolContext } from "./tool-context";

export interface RegistryOptions {
  settings?: Settings;
  cwd?: string;
  /** Sources besides the `mcpServers` of the settings. */
  sources?: ToolSource[];
  /** How long an MCP server may take to start and list its tools. */
  mcpTimeoutMs?: number;
  log?: (message: string) => void;
  /**
   * The registry in use: entries that loaded there and fail now keep their last good tool, and MCP
   * servers whose entry did not change keep their connection (close `previous` afterwards as usual).
   */
  previous?: Registry;
  /** MCP servers to connect again although their entry did not change, with why (a sign-in or sign-out). */
  reconnect?: Record<string, string>;
  /** Called with a server's name when it changed its tool list (`notifications/tools/list_changed`), until the registry is closed. */
  onToolsChanged?: (server: string) => void;
}

/**
 * Builds the registry from settings: built-ins, installed plugins, `plugins.paths`, and the tools
 * of every `mcpServers` entry. The servers keep running until `registry.close()`.
 */
export async function loadRegistry(options: RegistryOptions = {}): Promise<Registry> {
  const settings = options.settings ?? getSettings();
  const cwd = options.cwd ?? process.cwd();
  const builtinPackage = toolroomPackage();
  // Servers start while plugins are imported: start-up waits for the slower of the two.
  const sources = connectMcpSources(settings.mcpServers, {
    cwd,
    clientVersion: builtinPackage.version,
    timeoutMs: options.mcpTimeoutMs,
    log: options.log,
    ...(options.previous?.sources ? { previous: options.previous.sources } : {}),
    ...(options.reconnect ? { reconnect: options.reconnect } : {}),
    ...(options.onToolsChanged ? { onToolsChanged: options.onToolsChanged } : {}),
  }).then((mcp) => [...(options.sources ?? []), ...mcp]);
  try {
    return await buildRegistry({
      builtins: builtinEntries(settings),
      builtinPackage,
      nodeModules: [path.join(cwd, "node_modules")],
      pluginPaths: settings.plugins.paths.map((p) => path.resolve(cwd, p)),
      disabledPackages: settings.plugins.disabled,
      isEnabled: (name) => settings.tools[name]?.enabled !== false,
      metadataContext: createToolContext({ settings, toolName: "" }),
      sources,
      log: options.log,
      importTimeoutMs: settings.plugins.importTimeoutSeconds * 1000,
      previous: options.previous,
    });
  } catch (error) {
    // A registry that fails start-up (a collision) must not leave server processes behind.
    await closeSources(await sources);
    throw error;
  }
}

const cache = globalThis as unknown as { __toolroomRegistry?: Promise<Registry> };

/**
 * The registry is read at start and shared by every route; a live reload (./server-reload.ts)
 * replaces it when plugins or settings change, or an MCP server changes its tools.
 */
export function getRegistry(): Promise<Registry> {
  cache.__toolroomRegistry ??= loadServerRegistry();
  return cache.__toolroomRegistry;
}

/** The process's registry (getRegistry's, and every one that replaces it): it follows its MCP servers' tool lists. */
export function loadServerRegistry(options: Omit<RegistryOptions, "onToolsChanged"> = {}): Promise<Registry> {
  return loadRegistry({ ...options, onToolsChanged: toolsChanged });
}

interface Following {
  /** Live reload, once it runs: its notice tells the open pages. */
  reload?: (trigger: string[]) => Promise<unknown>;
  rebuilding: boolean;
  again: boolean;
}
const following = ((globalThis as unknown as { __toolroomFollowTools?: Following }).__toolroomFollowTools ??= { rebuilding: false, again: false });

/** Hands a server's changed tool list to live reload from now on (it coalesces a burst into one reload). */
export function followToolListsWith(reload: (trigger: string[]) => Promise<unknown>): void {
  following.reload = reload;
}

/**
 * A kept connection's tools changed: the registry in use is replaced by one built from it (a turn
 * already running keeps the registry it started with). A clash of names keeps the last good one.
 */
function toolsChanged(server: string): void {
  if (following.reload) {
    void following.reload([`mcpServers.${server} (its tools changed)`]);
    return;
  }
  // Before live reload runs: rebuilt here, one at a time, changes meanwhile folded into one more.
  if (following.rebuilding) {
    following.again = true;
    return;
  }
  following.rebuilding = true;
  void (async () => {
    do {
      following.again = false;
      const previous = await getRegistry();
      try {
        setRegistry(await loadServerRegistry({ previous }));
        await previous.close?.();
      } catch (error) {
        console.error(`toolroom: MCP server "${server}" changed its tools; still using the last good tools: ${(error as Error).message}`);
      }
    } while (following.again);
    following.rebuilding = false;
  })();
}

const listeners = ((globalThis as unknown as { __toolroomRegistryListeners?: Set<(registry: Registry) => void> }).__toolroomRegistryListeners ??= new Set());

export function setRegistry(registry: Registry): void {
  cache.__toolroomRegistry = Promise.resolve(registry);
  for (const listener of listeners) listener(registry);
}

/** Calls back with each registry a live reload installs (open MCP sessions re-list and notify); returns the unsubscribe. */
export function onRegistryChange(listener: (registry: Registry) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
