import { isPlainObject } from "./layers";
import type { LoadedSettings } from "./load";
import { maskSecrets } from "./mask";

export interface SettingRow {
  key: string;
  value: string;
  source: string;
}

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
  return rows;
}
