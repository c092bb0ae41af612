import { describe, expect, it } from "vitest";
import { createModelResolver, listModels } from "@/lib/chat/models";
import { settingsSchema } from "@/lib/settings/schema";
import { builtinEntries } from "../index";

const settings = (search: Record<string, unknown> = {}) =>
  settingsSchema.parse({
    llms: {
      offline: { provider: "offline" },
      gpt: { provider: "openai", apiKey: "sk-test" },
      local: { provider: "openai-compatible", baseURL: "http://127.0.0.1:1/v1", model: "nomic-embed-text" },
      chain: { type: "fallback", chain: ["gpt", "local"] },
    },
    search,
  });

describe("search.embeddings", () => {
  it("resolves OpenAI (text-embedding-3-small by default) and OpenAI-compatible embedding models", () => {
    const resolver = createModelResolver(settings());
    expect(resolver.embedding({ type: "ref", ref: "gpt" })).toMatchObject({ id: "gpt/text-embedding-3-small", model: { modelId: "text-embedding-3-small" } });
    expect(resolver.embedding({ type: "ref", ref: "local" })).toMatchObject({ id: "local/nomic-embed-text", model: { modelId: "nomic-embed-text" } });
  });

  it("refuses entries that cannot embed, naming them", () => {
    const resolver = createModelResolver(settings());
    expect(() => resolver.embedding({ type: "ref", ref: "offline" })).toThrow("llms.offline (offline) has no embedding models");
    expect(() => resolver.embedding({ type: "ref", ref: "chain" })).toThrow("llms.chain is a fallback chain");
  });

  it("switches the search tools' descriptions, and keeps the embedding model out of the chat's picker", () => {
    const plain = builtinEntries(settings());
    const hybrid = builtinEntries(settings({ embeddings: { type: "ref", ref: "local" } }));
    const description = (entries: typeof plain, exportName: string) =>
      (entries.find((e) => e.exportName === exportName)?.tool as { description: string }).description;
    expect(description(plain, "searchCode")).toContain("embeddings are not used");
    expect(description(hybrid, "hybridSearchCode")).toContain("fused with embedding similarity");
    expect(description(hybrid, "hybridSearchRunArtifacts")).toContain("fused with embedding similarity");
    expect(listModels(settings({ embeddings: { type: "ref", ref: "local" } })).map((m) => m.ref)).toEqual(["offline", "gpt", "chain"]);
    expect(listModels(settings()).map((m) => m.ref)).toContain("local");
  });
});
