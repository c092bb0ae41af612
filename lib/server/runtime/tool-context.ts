import type { LanguageModel } from "ai";
import { runsRootOf, sourceRootOf } from "@/lib/settings";
import type { Settings } from "@/lib/settings/schema";
import type { CommandPolicy, EmbeddingsConfig, ToolContext } from "@/lib/tools/types";
import { modelResolverFor } from "@/lib/chat/models";
import { commandPolicies } from "@/lib/builtins/shell-policy";
import { toolFiles } from "@/lib/sandbox/tool-files";

export interface ToolContextOptions {
  settings: Settings;
  toolName: string;
  chatId?: string | null;
  modelId?: string | null;
  isNewConversation?: boolean;
  signal?: AbortSignal;
  /** Resolves a model for tools that call an LLM; absent where no model is configured. */
  llm?: (toolName: string, name?: string) => LanguageModel;
}

const embeddingModels = new WeakMap<Settings, EmbeddingsConfig | null>();

/** The model `search.embeddings` names, made once per loaded settings. */
function embeddingsFor(settings: Settings): EmbeddingsConfig | null {
  if (!embeddingModels.has(settings)) {
    const ref = settings.search.embeddings;
    const resolved = ref ? modelResolverFor(settings).embedding(ref) : null;
    embeddingModels.set(settings, resolved ? { ...resolved, maxChunks: settings.search.maxEmbedChunks } : null);
  }
  return embeddingModels.get(settings)!;
}

/** The ToolContext every caller builds the same way: chat, try-it, CLI and MCP. */
export function createToolContext(options: ToolContextOptions): ToolContext {
  const { settings, toolName } = options;
  // search.cacheDir is the cache folder of every tool that keeps an index; `tools.<name>.cacheDir` moves one tool's.
  const toolSettings = { cacheDir: settings.search.cacheDir, ...(settings.tools[toolName] ?? {}) } as Record<string, unknown>;
  const policies: readonly CommandPolicy[] = toolName === "run_terminal_command" ? commandPolicies(settings.tools.run_terminal_command) : [];
  return {
    chatId: options.chatId ?? null,
    modelId: options.modelId ?? null,
    isNewConversation: options.isNewConversation ?? true,
    commandPolicies: policies,
    settings: toolSettings,
    llm: (name) => {
      if (!options.llm) throw new Error("no model is available to tools here");
      return options.llm(toolName, name);
    },
    embeddings: () => embeddingsFor(settings),
    signal: options.signal ?? new AbortController().signal,
    sourceRoot: sourceRootOf(settings),
    runsRoot: runsRootOf(settings),
    files: toolFiles(sourceRootOf(settings)),
  };
}
