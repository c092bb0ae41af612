import { GUARD_FILE_EXPLAINED } from "@/lib/tools/guard-file-text";
import { isPlainObject } from "./layers";
import type { LoadedSettings } from "./load";
import { maskSecrets } from "./mask";

export interface SettingRow {
  key: string;
  value: string;
  source: string;
  /** What a key that is not self-explanatory does, shown under it. */
  help?: string;
}

const HELP: Record<string, string> = { aiAssistedGuardFile: GUARD_FILE_EXPLAINED };

/** The effective settings as key / value / source rows, secrets masked, for the settings page. */
export function settingRows(loaded: LoadedSettings): SettingRow[] {
  const rows: SettingRow[] = [];
  const walk = (value: unknown, prefix: string) => {
    if (isPlainObject(value) && Object.keys(value).length > 0) {
      for (const [key, child] of Object.entries(value)) walk(child, prefix ? `${prefix}.${key}` : key);
      return;
    }
    rows.push({ key: prefix, value: JSON.stringify(value), source: loaded.origin[prefix] ?? "defaults" });
  };
  walk(maskSecrets(loaded.settings), "");
  // Optional keys with a behaviour when unset are listed too, so the page can say what they are.
  if (!rows.some((r) => r.key === "aiAssistedGuardFile")) rows.push({ key: "aiAssistedGuardFile", value: "not set (the default file)", source: "defaults" });
  return rows.map((r) => (HELP[r.key] ? { ...r, help: HELP[r.key] } : r));
}
