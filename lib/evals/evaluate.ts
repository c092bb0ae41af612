import crypto from "node:crypto";
import path from "node:path";
import { createModelResolver } from "@/lib/chat/models";
import { loadRegistry } from "@/lib/server/runtime/registry";
import { dependencyVersion, toolroomPackage } from "@/lib/server/tools-page/package-info";
import { runsRootOf } from "@/lib/settings";
import { maskSecrets } from "@/lib/settings/mask";
import { settingsSchema, type Settings } from "@/lib/settings/schema";
import type { Registry } from "@/lib/tools/registry-types";
import { writeEvalRun, type EnvFacts } from "./results";
import { runEval, type EvalRunResult, type RunEvalOptions } from "./runner";
import type { LoadedSuite } from "./suite";

const PROVIDER_PACKAGES = ["ai", "@ai-sdk/openai", "@ai-sdk/openai-compatible", "@ai-sdk/anthropic"];

/** The settings a suite runs under: the usual ones, with the suite's tool sections and plugin paths on top. */
export function suiteSettings(settings: Settings, loaded: LoadedSuite): Settings {
  const extra = loaded.suite.settings;
  if (!extra) return settings;
  const tools: Record<string, unknown> = { ...settings.tools };
  for (const [name, section] of Object.entries(extra.tools ?? {})) tools[name] = { ...(settings.tools[name] ?? {}), ...section };
  const paths = (extra.plugins?.paths ?? []).map((p) => path.resolve(path.dirname(loaded.file), p));
  return settingsSchema.parse({ ...settings, tools, plugins: { ...settings.plugins, paths: [...settings.plugins.paths, ...paths] } });
}

export function envFacts(settings: Settings, models: string[]): EnvFacts {
  const resolver = createModelResolver(settings);
  const providerVersions: Record<string, string> = {};
  for (const name of PROVIDER_PACKAGES) {
    const version = dependencyVersion(name);
    if (version) providerVersions[name] = version;
  }
  return {
    models: Object.fromEntries(
      models.map((ref) => {
        const model = resolver.byName(ref);
        return [ref, { provider: model.provider, modelId: model.modelId }];
      }),
    ),
    providerVersions,
    // Masked first: the hash tells two runs' settings apart without being a fingerprint of a key.
    settingsHash: crypto
      .createHash("sha256")
      .update(JSON.stringify(maskSecrets(settings)))
      .digest("hex"),
    toolroomVersion: toolroomPackage().version,
  };
}

export interface EvaluateOptions extends Omit<RunEvalOptions, "suite" | "settings" | "registry" | "resolver"> {
  loaded: LoadedSuite;
  settings: Settings;
  /** The process registry, used when the suite changes no tool settings; else one is loaded for the run and closed after. */
  registry?: Registry;
  cwd?: string;
}

export interface Evaluation {
  run: EvalRunResult;
  dir: string;
}

/** A whole eval: the runner over the chat engine, then the results written as a run under runsRoot. */
export async function evaluate(options: EvaluateOptions): Promise<Evaluation> {
  const { loaded, cwd = process.cwd() } = options;
  const settings = suiteSettings(options.settings, loaded);
  const own = settings === options.settings && options.registry ? undefined : await loadRegistry({ settings, cwd, log: () => {} });
  const registry = own ?? options.registry!;
  try {
    const resolver = createModelResolver(settings);
    const run = await runEval({ ...options, suite: loaded.suite, settings, registry, resolver });
    const env = envFacts(settings, [...new Set(run.cells.map((c) => c.model))]);
    const dir = writeEvalRun(runsRootOf(settings, cwd), { name: loaded.suite.name, file: loaded.file, text: loaded.text }, env, run);
    return { run, dir };
  } finally {
    await own?.close?.();
  }
}
