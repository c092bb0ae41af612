import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { findInstallDir } from "@/lib/settings/install-dir";
import { loadSettings, type LoadedSettings } from "@/lib/settings/load";
import { setLoadedSettings } from "@/lib/settings";
import { SettingsError } from "@/lib/settings/errors";
import { adoptDatabaseUrl, DatabaseUrlError } from "@/lib/db/url";

export class CliExit extends Error {
  constructor(
    readonly code: number,
    message = "",
  ) {
    super(message);
  }
}

/** Where the npm package keeps its database unless DATABASE_URL or database.url name one: the XDG data folder. */
export function packageDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.XDG_DATA_HOME || path.join(os.homedir(), ".local", "share"), "toolroom");
}

/**
 * The store when nothing names one. A clone keeps ./data/toolroom.db beside its code; the npm
 * package's folder is not the person's, so every command of it (and `toolroom serve`) shares one
 * database in the data folder, wherever it is started.
 */
function defaultDatabaseUrl(): string | undefined {
  const app = findInstallDir();
  return app && fs.existsSync(path.join(app, "pack.json")) ? `file:${path.join(packageDataDir(), "toolroom.db")}` : undefined;
}

// The store commands read settings before their action does (to set up the database they name): say each notice once.
const said = new Set<string>();

/** Loads settings with the global `--config`, and makes them the process settings. */
export function cliSettings(configPath: string | undefined): LoadedSettings {
  try {
    const loaded = loadSettings({ configPath });
    for (const notice of loaded.notices) {
      if (said.has(notice)) continue;
      said.add(notice);
      console.error(`toolroom: ${notice}`);
    }
    setLoadedSettings(loaded);
    adoptDatabaseUrl(loaded.settings.database.url ?? defaultDatabaseUrl());
    return loaded;
  } catch (error) {
    if (error instanceof SettingsError || error instanceof DatabaseUrlError) throw new CliExit(2, `toolroom: ${error.message}`);
    throw error;
  }
}
