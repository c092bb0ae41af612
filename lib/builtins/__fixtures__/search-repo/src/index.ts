import { LruCache } from "./cache/lru";
import { loadSettingsFile } from "./config/loader";
import { startHttpServer } from "./http/server";
import { retryWithBackoff } from "./util/retry";
import { signAccessToken, verifyAccessToken } from "./auth/tokens";

// Wires the pieces: load the settings file, make a cache, retry the server start with backoff.
export async function main(settingsPath: string): Promise<void> {
  const settings = loadSettingsFile(settingsPath);
  const cache = new LruCache<string, string>(settings.cacheSize);
  const token = signAccessToken("admin", settings.tokenSecret);
  cache.set("admin-token", token);
  if (verifyAccessToken(token, settings.tokenSecret) === null) throw new Error("token round trip failed");
  await retryWithBackoff(async () => startHttpServer(settingsPath), settings.retryAttempts);
}
