import fs from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { SettingsError } from "./errors";
import { defaultFilePaths, isPlainObject, mergeLayers, readEnvLayer, readFileLayer, type PlainObject, type SettingsLayer } from "./layers";
import { findInstallDir } from "./install-dir";
import { danglingModelRefs } from "./references";
import { settingsSchema, type Settings } from "./schema";

export interface LoadOptions {
  cwd?: string;
  /** `--config PATH`: a layer above ./toolroom.yaml, below the environment. */
  configPath?: string;
  env?: Record<string, string | undefined>;
  /** Overrides the /etc/xdg, ~/.config and ./toolroom.yaml chain (tests). */
  files?: string[];
  /** Toolroom's own folder, the one working folder whose ./toolroom.yaml is trusted (default: found from the running script). */
  installDir?: string;
}

export interface LoadedSettings {
  settings: Settings;
  /** Which layer each leaf key came from: "defaults", a file path, or an env variable name. */
  origin: Record<string, string>;
  sources: string[];
  /** Settings files found but not read, each with why and how to use it (the CLI prints them, the server logs them). */
  notices: string[];
}

const samePlace = (a: string, b: string) => {
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  return real(a) === real(b);
};

/**
 * ./toolroom.yaml is trusted only in Toolroom's own folder (where `npm start` runs). Anywhere else
 * the working folder may be a repository someone else wrote (`cd repo && toolroom mcp`), and its
 * settings file could load its plugins, start its MCP commands, enable tools or approve calls:
 * it is read only when the person names it with --config.
 */
function untrustedWorkingFile(file: string, cwd: string, installDir: string | undefined): boolean {
  return file === path.join(cwd, "toolroom.yaml") && !(installDir !== undefined && samePlace(cwd, installDir));
}

export function loadSettings(options: LoadOptions = {}): LoadedSettings {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const configPath = options.configPath ?? env.TOOLROOM_CONFIG;
  const defaults = settingsSchema.parse({});

  const layers: SettingsLayer[] = [];
  const notices: string[] = [];
  const installDir = options.installDir ?? findInstallDir();
  for (const file of options.files ?? defaultFilePaths(cwd)) {
    if (!options.files && untrustedWorkingFile(file, cwd, installDir)) {
      // Named with --config, it is read as that layer.
      if (fs.existsSync(file) && !(configPath && samePlace(configPath, file)))
        notices.push(
          `${file} was not read: a toolroom.yaml in the working folder is trusted only in Toolroom's own folder${installDir ? ` (${installDir})` : ""}, ` +
            `since one in a repository someone else wrote could load plugins, start commands, enable tools or approve calls. To use it, pass --config ${file}.`,
        );
      continue;
    }
    const layer = readFileLayer(file, false);
    if (layer) layers.push(layer);
  }
  if (configPath) layers.push(readFileLayer(configPath, true) as SettingsLayer);
  const envLayer = readEnvLayer(env, envShape(defaults));
  layers.push(envLayer);

  const { merged, origin } = mergeLayers(layers);
  const resolveSource = (keyPath: string): string => {
    const label = originOf(keyPath, origin) ?? "defaults";
    return label === "env" ? envVariableFor(keyPath, envLayer.origins) : label;
  };

  // A required key that is missing has no origin of its own: name the layer that wrote its siblings.
  const errorSource = (keyPath: string): string => {
    if (originOf(keyPath, origin)) return resolveSource(keyPath);
    const parent = keyPath.includes(".") ? keyPath.slice(0, keyPath.lastIndexOf(".")) : "";
    const sibling = parent ? [...origin.keys()].find((k) => k.startsWith(`${parent}.`)) : undefined;
    return sibling ? resolveSource(sibling) : "defaults";
  };

  const parsed = settingsSchema.safeParse(merged);
  if (!parsed.success) throw toSettingsError(parsed.error, errorSource);
  const dangling = danglingModelRefs(parsed.data)[0];
  if (dangling) {
    const llmsKey = [...origin.keys()].find((k) => k === "llms" || k.startsWith("llms."));
    throw danglingError(dangling, Object.keys(parsed.data.llms), resolveSource, llmsKey ? resolveSource(llmsKey) : "settings");
  }

  const leafOrigin: Record<string, string> = {};
  for (const keyPath of leafPaths(parsed.data)) leafOrigin[keyPath] = resolveSource(keyPath);
  return { settings: parsed.data, origin: leafOrigin, sources: layers.map((l) => l.source).filter((s) => s !== "env"), notices };
}

/** Known keys for matching variable names: the defaults plus the optional keys they lack. */
function envShape(defaults: PlainObject): PlainObject {
  const server = isPlainObject(defaults.server) ? defaults.server : {};
  const search = isPlainObject(defaults.search) ? defaults.search : {};
  const telemetry = isPlainObject(defaults.telemetry) ? defaults.telemetry : {};
  const auth = isPlainObject(defaults.auth) ? defaults.auth : {};
  return {
    ...defaults,
    aiAssistedGuardFile: "",
    server: { ...server, token: "", requireToken: false },
    auth: { ...auth, required: false, url: "", oidc: { issuer: "", clientId: "", clientSecret: "", name: "", role: "", allowSignUp: false } },
    search: { ...search, embeddings: {} },
    telemetry: { ...telemetry, otlpEndpoint: "" },
  };
}

function originOf(keyPath: string, origin: Map<string, string>): string | undefined {
  for (let p = keyPath; p; p = p.includes(".") ? p.slice(0, p.lastIndexOf(".")) : "") {
    const found = origin.get(p);
    if (found) return found;
  }
  return undefined;
}

function envVariableFor(keyPath: string, origins: Map<string, string>): string {
  for (let p = keyPath; p; p = p.includes(".") ? p.slice(0, p.lastIndexOf(".")) : "") {
    const name = origins.get(p);
    if (name) return name;
  }
  return "environment";
}

/**
 * A model entry is one of two shapes (a provider, or a fallback chain), and a bad one fails both.
 * The shape it was meant to have is the one with the fewest problems: its first problem, at its
 * own key path, is the one worth naming — not "Invalid input" at the entry.
 */
function closestIssue(issue: z.core.$ZodIssue | undefined): z.core.$ZodIssue | undefined {
  if (issue?.code !== "invalid_union" || issue.errors.length === 0) return issue;
  const branch = issue.errors.reduce((best, errors) => (errors.length < best.length ? errors : best));
  const inner = branch[0];
  return inner ? closestIssue({ ...inner, path: [...issue.path, ...inner.path] }) : issue;
}

function toSettingsError(error: z.ZodError, resolveSource: (keyPath: string) => string): SettingsError {
  const issue = closestIssue(error.issues[0]);
  const keyPath = (issue?.path ?? []).map(String).join(".");
  const problem = describeIssue(issue);
  // An unknown key's source is the layer that wrote that key, not its parent's.
  const sourceKey = issue?.code === "unrecognized_keys" && issue.keys[0] ? [keyPath, issue.keys[0]].filter(Boolean).join(".") : keyPath;
  return new SettingsError(sourceKey ? resolveSource(sourceKey) : "settings", keyPath, problem);
}

function danglingError(
  dangling: { keyPath: string; ref: string },
  known: string[],
  resolveSource: (keyPath: string) => string,
  llmsSource: string,
): SettingsError {
  const source = resolveSource(dangling.keyPath);
  const choices = known.length ? `name one of ${known.map((k) => `"${k}"`).join(", ")}` : "llms is empty";
  // The default chat.llm names "offline": a layer that sets llms without it leaves that default dangling.
  const where = source === "defaults" ? `${llmsSource} (the default "${dangling.ref}" is not among its llms)` : source;
  return new SettingsError(where, dangling.keyPath, `no model named "${dangling.ref}" in llms; add an llms.${dangling.ref} entry, or ${choices}`);
}

function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return "invalid value";
  switch (issue.code) {
    case "invalid_value":
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "unrecognized_keys":
      return `unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
    case "invalid_type":
      return `expected ${issue.expected}`;
    default:
      return issue.message;
  }
}

function leafPaths(value: PlainObject, prefix = ""): string[] {
  const out: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    const keyPath = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(child) && Object.keys(child).length > 0) out.push(...leafPaths(child, keyPath));
    else out.push(keyPath);
  }
  return out;
}
