import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { listModels } from "@/lib/chat/models";
import { MODEL_EXAMPLES } from "./model-examples";
import { danglingModelRefs } from "./references";
import { settingsSchema } from "./schema";

describe("the Settings page's model examples", () => {
  it.each(MODEL_EXAMPLES.map((e) => [e.title, e] as const))("%s is a valid ./toolroom.yaml that adds a model to the picker", (_title, example) => {
    const parsed = settingsSchema.safeParse(parse(example.yaml));
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    if (!parsed.success) return;
    expect(danglingModelRefs(parsed.data)).toEqual([]);
    expect(listModels(parsed.data).length).toBeGreaterThan(1);
  });

  it("covers OpenAI, Anthropic and a local OpenAI-compatible server", () => {
    const yaml = MODEL_EXAMPLES.map((e) => e.yaml).join("\n");
    for (const provider of ["openai", "anthropic", "openai-compatible"]) expect(yaml).toContain(`provider: ${provider}`);
    for (const server of ["Ollama", "vLLM", "LM Studio"]) expect(MODEL_EXAMPLES.some((e) => e.title.includes(server))).toBe(true);
  });
});
