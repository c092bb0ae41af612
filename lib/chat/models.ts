import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { EmbeddingModelV4, LanguageModelV4 } from "@ai-sdk/provider";
import { createProviderRegistry, customProvider } from "ai";
import type { LlmEntry, LlmRef, Settings } from "@/lib/settings/schema";
import { fallbackModel } from "./fallback-model";
import { createOfflineModel, OFFLINE_MODEL_LABEL } from "./offline-model";

/** OpenAI's small embedding model: cheap, 1536 dimensions, good enough for code search. */
const DEFAULT_EMBEDDING_MODEL = "text-embedding-3-small";

type ProviderEntry = Exclude<LlmEntry, { type: "fallback" }>;

export class ModelConfigError extends Error {
  override name = "ModelConfigError";
}

const DEFAULT_MODELS: Record<ProviderEntry["provider"], string> = {
  offline: "scripted",
  openai: "gpt-4o-mini",
  anthropic: "claude-sonnet-4-5",
  "openai-compatible": "default",
};

/** One provider per settings entry, so each entry keeps its own base URL and key. */
function providerFor(name: string, entry: ProviderEntry, env: Record<string, string | undefined>) {
  switch (entry.provider) {
    case "offline":
      return customProvider({ languageModels: { scripted: createOfflineModel() } });
    case "openai":
      return createOpenAI({ apiKey: entry.apiKey ?? env.OPENAI_API_KEY, baseURL: entry.baseURL, headers: entry.headers });
    case "anthropic":
      return createAnthropic({ apiKey: entry.apiKey ?? env.ANTHROPIC_API_KEY, baseURL: entry.baseURL, headers: entry.headers });
    case "openai-compatible":
      if (!entry.baseURL) throw new ModelConfigError(`llms.${name}: an openai-compatible model needs a baseURL`);
      // Servers that follow OpenAI's spec (vLLM, LM Studio, llama.cpp, Ollama) stream usage only when asked (stream_options.include_usage).
      return createOpenAICompatible({
        name,
        baseURL: entry.baseURL,
        apiKey: entry.apiKey ?? env.OPENAI_COMPATIBLE_API_KEY,
        headers: entry.headers,
        includeUsage: true,
      });
  }
}

export interface ModelChoice {
  ref: string;
  label: string;
  kind: string;
}

/** The models a person can pick in the chat, from settings `llms`. */
export function listModels(settings: Settings): ModelChoice[] {
  // The entry search.embeddings names is an embedding model: it cannot chat.
  const embedder = settings.search.embeddings?.type === "ref" ? settings.search.embeddings.ref : undefined;
  return Object.entries(settings.llms)
    .filter(([ref]) => ref !== embedder)
    .map(([ref, entry]) => ({ ref, label: modelLabel(ref, entry), kind: "type" in entry ? "fallback" : entry.provider }));
}

export function modelLabel(ref: string, entry: LlmEntry): string {
  if (entry.label) return entry.label;
  if ("type" in entry) return `${ref} (fallback: ${entry.chain.join(" → ")})`;
  if (entry.provider === "offline") return OFFLINE_MODEL_LABEL;
  return `${ref} (${entry.provider}/${entry.model ?? DEFAULT_MODELS[entry.provider]})`;
}

/**
 * Resolves models from settings through the AI SDK provider registry: `ref`s to `llms` entries,
 * inline `custom` models, and fallback chains of refs.
 */
export function createModelResolver(settings: Settings, env: Record<string, string | undefined> = process.env) {
  const providers: Record<string, ReturnType<typeof providerFor>> = {};
  for (const [name, entry] of Object.entries(settings.llms)) {
    if (!("type" in entry)) providers[name] = providerFor(name, entry, env);
  }
  const registry = createProviderRegistry(providers);
  // A provider's model object holds only its settings (building one compiles its response schemas),
  // so one per name serves every turn.
  const built = new Map<string, LanguageModelV4>();

  const byName = (ref: string, seen: string[] = []): LanguageModelV4 => {
    const cached = built.get(ref);
    if (cached) return cached;
    const model = buildByName(ref, seen);
    built.set(ref, model);
    return model;
  };
  const buildByName = (ref: string, seen: string[]): LanguageModelV4 => {
    const entry = settings.llms[ref];
    if (!entry) throw new ModelConfigError(`no model named "${ref}" in settings llms (known: ${Object.keys(settings.llms).join(", ") || "none"})`);
    if ("type" in entry) {
      if (seen.includes(ref)) throw new ModelConfigError(`fallback chain loops through "${ref}"`);
      return fallbackModel(
        ref,
        entry.chain.map((link) => ({ ref: link, model: byName(link, [...seen, ref]) })),
      );
    }
    return registry.languageModel(`${ref}:${entry.model ?? DEFAULT_MODELS[entry.provider]}`);
  };

  return {
    byName,
    /** An embedding model: an OpenAI or OpenAI-compatible entry (others have none in the AI SDK). */
    embedding(ref: LlmRef): { model: EmbeddingModelV4; id: string } {
      const name = ref.type === "ref" ? ref.ref : "custom";
      const entry = ref.type === "ref" ? settings.llms[ref.ref] : (({ type: _type, ...rest }) => rest)(ref);
      if (!entry) throw new ModelConfigError(`no model named "${name}" in settings llms`);
      if ("type" in entry) throw new ModelConfigError(`llms.${name} is a fallback chain; search.embeddings must name one embedding model`);
      if (entry.provider !== "openai" && entry.provider !== "openai-compatible")
        throw new ModelConfigError(`llms.${name} (${entry.provider}) has no embedding models; use an openai or openai-compatible entry`);
      const modelId = entry.model ?? (entry.provider === "openai" ? DEFAULT_EMBEDDING_MODEL : DEFAULT_MODELS[entry.provider]);
      const provider = ref.type === "ref" ? providers[name]! : providerFor(name, entry, env);
      if (!("embeddingModel" in provider)) throw new ModelConfigError(`llms.${name} has no embedding models`);
      return { model: provider.embeddingModel(modelId), id: `${name}/${modelId}` };
    },
    resolve(ref: LlmRef): LanguageModelV4 {
      if (ref.type === "ref") return byName(ref.ref);
      const { type: _type, ...entry } = ref;
      return providerFor("custom", entry, env).languageModel(entry.model ?? DEFAULT_MODELS[entry.provider]);
    },
  };
}

export type ModelResolver = ReturnType<typeof createModelResolver>;

const resolvers = new WeakMap<Settings, ModelResolver>();

/** The resolver of these settings, built once: settings are replaced, never changed, when they are reloaded. */
export function modelResolverFor(settings: Settings): ModelResolver {
  let resolver = resolvers.get(settings);
  if (!resolver) resolvers.set(settings, (resolver = createModelResolver(settings)));
  return resolver;
}
