import { readFileSync } from "node:fs";
import { DEFAULT_SETTINGS, validateSettings, type Settings } from "./schema";

/** Parses "key: value" lines; numbers stay numbers. */
function parseKeyValues(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    out[key] = /^\d+$/.test(value) ? Number(value) : value;
  }
  return out;
}

/** Reads a settings file from disk, merges it over the defaults and validates the result. */
export function loadSettingsFile(filePath: string): Settings {
  const text = readFileSync(filePath, "utf8");
  const parsed = parseKeyValues(text);
  const problems = validateSettings(parsed);
  if (problems.length > 0) throw new Error(`invalid settings file ${filePath}: ${problems.join("; ")}`);
  return { ...DEFAULT_SETTINGS, ...parsed } as Settings;
}
