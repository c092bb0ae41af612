import path from "node:path";
import { loadSettings, type LoadedSettings } from "./load";
import { DEFAULT_RUNS_ROOT, type Settings } from "./schema";

export type { Settings } from "./schema";

const cache = globalThis as unknown as { __toolroomSettings?: LoadedSettings };

/**
 * The process's settings, read once. The CLI's `--config` reaches the server and child
 * processes through TOOLROOM_CONFIG.
 */
export function getLoadedSettings(): LoadedSettings {
  cache.__toolroomSettings ??= loadSettings();
  return cache.__toolroomSettings;
}

export function getSettings(): Settings {
  return getLoadedSettings().settings;
}

/** Tests and the CLI replace the process settings explicitly. */
export function setLoadedSettings(loaded: LoadedSettings | undefined): void {
  cache.__toolroomSettings = loaded;
}

export function sourceRootOf(settings: Settings, cwd = process.cwd()): string {
  return path.resolve(cwd, settings.sourceRoot);
}

export function runsRootOf(settings: Settings, cwd = process.cwd()): string {
  return path.resolve(cwd, settings.runsRoot);
}

/**
 * Whether `runsRoot` is the default `./runs` (not set, or set to it): missing, it is a fresh
 * clone's empty state rather than a mistake. Judged by value, so every reader (the CLI, the page,
 * the chat tools) answers the same without knowing which layer a value came from.
 */
export function isDefaultRunsRoot(settings: Settings): boolean {
  return path.posix.normalize(settings.runsRoot.replace(/\\/g, "/")).replace(/\/$/, "") === path.posix.normalize(DEFAULT_RUNS_ROOT);
}
