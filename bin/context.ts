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

/** Loads settings with the global `--config`, and makes them the process settings. */
export function cliSettings(configPath: string | undefined): LoadedSettings {
  try {
    const loaded = loadSettings({ configPath });
    for (const notice of loaded.notices) console.error(`toolroom: ${notice}`);
    setLoadedSettings(loaded);
    adoptDatabaseUrl(loaded.settings.database.url);
    return loaded;
  } catch (error) {
    if (error instanceof SettingsError || error instanceof DatabaseUrlError) throw new CliExit(2, `toolroom: ${error.message}`);
    throw error;
  }
}
