import path from "node:path";
import { loadSettings, type LoadedSettings } from "./load";
import type { Settings } from "./schema";

export type { Settings } from "./schema";
export { SettingsError } from "./errors";

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
