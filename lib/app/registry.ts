import path from "node:path";
import { builtinEntries } from "@/lib/builtins";
import { getSettings } from "@/lib/settings";
import type { Settings } from "@/lib/settings/schema";
import { buildRegistry, type ToolSource } from "@/lib/tools/registry";
import type { Registry } from "@/lib/tools/registry-types";
import { toolroomPackage } from "./package-info";
import { createToolContext } from "./tool-context";

export interface RegistryOptions {
  settings?: Settings;
  cwd?: string;
  sources?: ToolSource[];
  log?: (message: string) => void;
}

/** Builds the registry from settings: built-ins, installed plugins, `plugins.paths`. */
export function loadRegistry(options: RegistryOptions = {}): Promise<Registry> {
  const settings = options.settings ?? getSettings();
  const cwd = options.cwd ?? process.cwd();
  return buildRegistry({
    builtins: builtinEntries(settings),
    builtinPackage: toolroomPackage(cwd),
    nodeModules: [path.join(cwd, "node_modules")],
    pluginPaths: settings.plugins.paths.map((p) => path.resolve(cwd, p)),
    disabledPackages: settings.plugins.disabled,
    isEnabled: (name) => settings.tools[name]?.enabled !== false,
    metadataContext: createToolContext({ settings, toolName: "" }),
    sources: options.sources,
    log: options.log,
  });
}

const cache = globalThis as unknown as { __toolroomRegistry?: Promise<Registry> };

/** The registry is read once per server process and shared by every route. */
export function getRegistry(): Promise<Registry> {
  cache.__toolroomRegistry ??= loadRegistry();
  return cache.__toolroomRegistry;
}
