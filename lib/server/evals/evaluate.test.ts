import { describe, expect, it } from "vitest";
import { settingsSchema } from "@/lib/settings/schema";
import { envFacts } from "./evaluate";

describe("an eval run's env.json facts", () => {
  it("record each model's configured tool mode and text protocol, falling back to the chat's", () => {
    const settings = settingsSchema.parse({
      llms: {
        offline: { provider: "offline" },
        tuned: { provider: "offline", toolMode: "text", textProtocol: "hermes" },
        switching: { provider: "offline", toolMode: "auto" },
      },
      chat: { toolMode: "native", textProtocol: "xml" },
    });
    expect(envFacts(settings, ["offline", "tuned", "switching"]).models).toEqual({
      offline: { provider: "offline", modelId: "scripted", toolMode: "native", textProtocol: "xml" },
      tuned: { provider: "offline", modelId: "scripted", toolMode: "text", textProtocol: "hermes" },
      switching: { provider: "offline", modelId: "scripted", toolMode: "auto", textProtocol: "xml" },
    });
  });
});
