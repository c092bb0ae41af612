// Fails start-up with a one-paragraph message, never a bare stack: bad settings, a broken built-in,
// two packages registering one tool name.
import { loadRegistry } from "@/lib/app/registry";
import { SettingsError } from "@/lib/settings/errors";
import { loadSettings } from "@/lib/settings/load";
import { RegistryError } from "@/lib/tools/errors";

export async function preflight(): Promise<{ host: string; port: number }> {
  try {
    const { settings } = loadSettings();
    await loadRegistry({ settings, log: () => {} });
    return { host: process.env.HOST ?? settings.server.host, port: Number(process.env.PORT ?? 3000) };
  } catch (error) {
    if (error instanceof SettingsError || error instanceof RegistryError) {
      console.error(`toolroom: cannot start. ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
}
