import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse as parseYaml, YAMLParseError } from "yaml";
import { SettingsError } from "./errors";

export type PlainObject = Record<string, unknown>;

/** One source of settings, lowest first in the chain. */
export interface SettingsLayer {
  /** Shown on the settings page: "defaults", a file path, or "env". */
  source: string;
  values: PlainObject;
}

export function isPlainObject(value: unknown): value is PlainObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function defaultFilePaths(cwd: string, home = os.homedir()): string[] {
  return [
    "/etc/xdg/toolroom/settings.yaml",
    path.join(process.env.XDG_CONFIG_HOME ?? path.join(home, ".config"), "toolroom", "settings.yaml"),
    path.join(cwd, "toolroom.yaml"),
  ];
}

/** Reads one YAML file as a layer; a missing optional file is no layer at all. */
export function readFileLayer(file: string, required: boolean): SettingsLayer | null {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if (!required && (error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new SettingsError(file, "", `cannot read the file (${(error as Error).message})`);
  }
  let values: unknown;
  try {
    values = parseYaml(text);
  } catch (error) {
    const where = error instanceof YAMLParseError && error.linePos ? ` at line ${error.linePos[0].line}, column ${error.linePos[0].col}` : "";
    const message = (error as Error).message.split("\n")[0];
    throw new SettingsError(file, "", `not valid YAML${where}: ${message}`);
  }
  if (values === null || values === undefined) return { source: file, values: {} };
  if (!isPlainObject(values)) throw new SettingsError(file, "", "expected a mapping of keys at the top level");
  return { source: file, values };
}

/**
 * `TOOLROOM_CHAT__MAX_STEPS`-style variables. Names match known keys case-insensitively
 * (`MAXSTEPS` → `maxSteps`); keys the shape does not know (a plugin tool's own section) keep
 * their lower-case spelling. Values are read as YAML scalars, so `5`, `true` and `[a, b]` work.
 */
export function readEnvLayer(env: Record<string, string | undefined>, shape: PlainObject): SettingsLayer & { origins: Map<string, string> } {
  const values: PlainObject = {};
  const origins = new Map<string, string>();
  for (const [name, raw] of Object.entries(env)) {
    if (!name.startsWith("TOOLROOM_") || raw === undefined) continue;
    if (name === "TOOLROOM_CONFIG") continue;
    const segments = name.slice("TOOLROOM_".length).split("__").filter(Boolean);
    if (segments.length === 0) continue;
    let target = values;
    let known: unknown = shape;
    const keys: string[] = [];
    segments.forEach((segment, index) => {
      const key = matchKey(segment, known);
      keys.push(key);
      known = isPlainObject(known) ? known[key] : undefined;
      if (index === segments.length - 1) {
        target[key] = parseEnvValue(raw);
      } else {
        if (!isPlainObject(target[key])) target[key] = {};
        target = target[key] as PlainObject;
      }
    });
    origins.set(keys.join("."), name);
  }
  return { source: "env", values, origins };
}

function matchKey(segment: string, known: unknown): string {
  const wanted = segment.toLowerCase().replaceAll("_", "");
  if (isPlainObject(known)) {
    for (const key of Object.keys(known)) {
      if (key.toLowerCase().replaceAll("_", "") === wanted) return key;
    }
  }
  return segment.toLowerCase();
}

function parseEnvValue(raw: string): unknown {
  try {
    const value: unknown = parseYaml(raw);
    return value === null && raw.trim() !== "" && raw.trim() !== "null" ? raw : value;
  } catch {
    return raw;
  }
}

/** Deep merge: objects merge key by key, anything else (arrays too) is replaced by the higher layer. */
export function mergeLayers(layers: readonly SettingsLayer[]): { merged: PlainObject; origin: Map<string, string> } {
  const merged: PlainObject = {};
  const origin = new Map<string, string>();
  for (const layer of layers) mergeInto(merged, layer.values, layer.source, "", origin);
  return { merged, origin };
}

function mergeInto(target: PlainObject, source: PlainObject, label: string, prefix: string, origin: Map<string, string>): void {
  for (const [key, value] of Object.entries(source)) {
    const keyPath = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(value)) {
      if (!isPlainObject(target[key])) target[key] = {};
      mergeInto(target[key] as PlainObject, value, label, keyPath, origin);
      if (Object.keys(value).length === 0) origin.set(keyPath, label);
    } else {
      target[key] = value;
      origin.set(keyPath, label);
    }
  }
}
