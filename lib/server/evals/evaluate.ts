import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createModelResolver, type ModelResolver } from "@/lib/chat/models";
import { readJournal, openJournal, JOURNAL } from "@/lib/evals/journal";
import { newRunDir, writeEvalRun, type EnvFacts } from "@/lib/evals/results";
import { openTranscripts, type TranscriptWriter } from "@/lib/evals/transcript";
import { assertJudgesUsable } from "@/lib/evals/judge";
import { assertTrialBound, judgeCalls, runEval, trialCount, type EvalRunResult, type RunEvalOptions, type TurnFor } from "@/lib/evals/runner";
import type { LoadedSuite } from "@/lib/evals/suite";
import { assertRunnable, suiteAsks } from "@/lib/evals/trust";
import { settingsRuleDecider } from "@/lib/server/approvals/settings-rules";
import { turnSetup } from "@/lib/server/chat/turn-setup";
import { loadRegistry } from "@/lib/server/runtime/registry";
import { dependencyVersion, toolroomPackage } from "@/lib/server/tools-page/package-info";
import { runsRootOf } from "@/lib/settings";
import { maskSecrets } from "@/lib/settings/mask";
import { settingsSchema, type Settings } from "@/lib/settings/schema";
import type { RuleDecider } from "@/lib/tools/approval-rules";
import type { Registry } from "@/lib/tools/registry-types";

const PROVIDER_PACKAGES = ["ai", "@ai-sdk/openai", "@ai-sdk/openai-compatible", "@ai-sdk/anthropic"];

/**
 * The settings a suite runs under: the usual ones, with a trusted suite's tool sections and plugin
 * paths on top. An untrusted suite changes nothing (and one that asks is refused before this).
 */
export function suiteSettings(settings: Settings, loaded: LoadedSuite, trusted: boolean): Settings {
  const extra = loaded.suite.settings;
  if (!extra || !trusted) return settings;
  const tools: Record<string, unknown> = { ...settings.tools };
  for (const [name, section] of Object.entries(extra.tools ?? {})) tools[name] = { ...(settings.tools[name] ?? {}), ...section };
  const paths = (extra.plugins?.paths ?? []).map((p) => path.resolve(path.dirname(loaded.file), p));
  return settingsSchema.parse({ ...settings, tools, plugins: { ...settings.plugins, paths: [...settings.plugins.paths, ...paths] } });
}

/** Each trial's turn as chat builds it (limits, tool context, error text), with the approval rules deciding first. */
export function evalTurnFor(settings: Settings, resolver: ModelResolver, rules: (chatId: string) => RuleDecider): TurnFor {
  return ({ chatId, cell, model }) => {
    const { protocol: _protocol, ...base } = turnSetup({
      settings,
      resolver,
      chatId,
      modelId: `${model.provider}/${model.modelId}`,
      chatLlm: { type: "ref", ref: cell.model },
      isNewConversation: true,
    });
    return { ...base, rules: rules(chatId) };
  };
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
        const entry = settings.llms[ref];
        // As a chat with this model would take tools (lib/server/chat/turn-setup.ts toolModeFor).
        const toolMode = entry?.toolMode ?? settings.chat.toolMode;
        return [ref, { provider: model.provider, modelId: model.modelId, toolMode, textProtocol: entry?.textProtocol ?? settings.chat.textProtocol }];
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

export interface EvaluateOptions extends Omit<RunEvalOptions, "suite" | "settings" | "registry" | "resolver" | "turnFor"> {
  loaded: LoadedSuite;
  settings: Settings;
  /** The suite may load plugins, configure tools and approve calls (see lib/evals/trust.ts). */
  trusted: boolean;
  /** How the suite's path is written in `evals.trusted` (the refusal names it). */
  trustKey: string;
  /** The process registry, used when the suite changes no tool settings; else one is loaded for the run and closed after. */
  registry?: Registry;
  /** The approval rules of one trial's chat; default the settings' own (the CLI has no database). */
  rules?: (chatId: string) => RuleDecider;
  /**
   * Keep a `trials.jsonl` in the run folder as trials finish (the CLI: it has no database), so a
   * crash leaves them; a folder given here is resumed: the trials its journal holds are not run again.
   */
  journal?: { dir?: string };
  cwd?: string;
}

export interface Evaluation {
  run: EvalRunResult;
  dir: string;
}

/** A whole eval: the runner over the chat engine, then the results written as a run under runsRoot. */
export async function evaluate(options: EvaluateOptions): Promise<Evaluation> {
  const { loaded, cwd = process.cwd(), trusted } = options;
  // Before any registry is loaded: a judge these settings lack, or a run too large, is refused at once.
  assertJudgesUsable(loaded.suite, options.settings, loaded.file);
  assertTrialBound(trialCount(loaded.suite, options.settings, options), options.settings, judgeCalls(loaded.suite, options.settings, options));
  const own = suiteSettings(options.settings, loaded, trusted);
  const registry = (own === options.settings ? options.registry : undefined) ?? (await loadRegistry({ settings: own, cwd, log: () => {} }));
  try {
    // An untrusted suite's registry is the usual one (its settings were not applied), so it also
    // says which tools confirm: a mock in place of one would answer for that call.
    assertRunnable(
      suiteAsks(loaded.suite, (tool) => registry.get(tool)?.requiresConfirmation ?? false),
      trusted,
      loaded.file,
      options.trustKey,
    );
    return await runAndWrite(options, own, registry);
  } finally {
    if (registry !== options.registry) await registry.close?.();
  }
}

async function runAndWrite(options: EvaluateOptions, own: Settings, registry: Registry): Promise<Evaluation> {
  const { loaded, cwd = process.cwd() } = options;
  const runsRoot = runsRootOf(own, cwd);
  const startedAt = options.startedAt ?? new Date();
  const dir = options.journal ? (options.journal.dir ?? newRunDir(runsRoot, loaded.suite.name, startedAt)) : undefined;
  const finished = options.finished ?? (dir ? readJournal(dir) : undefined);
  const journal = dir ? openJournal(dir) : undefined;
  // No store to keep the trials as chats (the CLI): their transcripts go into the run folder.
  const transcripts = dir && !options.store ? transcriptWriter(dir, own) : undefined;
  try {
    const resolver = createModelResolver(own);
    const rules = options.rules ?? (() => settingsRuleDecider(own));
    const run = await runEval({
      ...options,
      suite: loaded.suite,
      file: loaded.file,
      settings: own,
      registry,
      resolver,
      startedAt,
      ...(finished ? { finished } : {}),
      ...(transcripts ? { transcripts } : {}),
      turnFor: evalTurnFor(own, resolver, rules),
      onTrial: async (record, done, total) => {
        journal?.append(record);
        await options.onTrial?.(record, done, total);
      },
    });
    const env = envFacts(own, [...new Set(run.cells.map((c) => c.model))]);
    const written = writeEvalRun(runsRoot, { name: loaded.suite.name, file: loaded.file, text: loaded.text, cases: loaded.suite.cases }, env, run, dir);
    // Complete: cases.json holds every trial; a partial run keeps its journal to resume from.
    if (dir && !run.partial) fs.rmSync(path.join(dir, JOURNAL), { force: true });
    return { run, dir: written };
  } finally {
    journal?.close();
    transcripts?.close();
  }
}

/** A transcript keeps the trace's steps only where chats would keep their traces (`telemetry.traces`). */
function transcriptWriter(dir: string, settings: Settings): TranscriptWriter {
  const writer = openTranscripts(dir);
  if (settings.telemetry.traces) return writer;
  return { write: (t) => writer.write({ ...t, steps: [] }), close: () => writer.close() };
}
