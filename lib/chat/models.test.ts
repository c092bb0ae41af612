import { describe, expect, it } from "vitest";
import { settingsSchema } from "@/lib/settings/schema";
import { modelResolverFor } from "./models";

const settings = () =>
  settingsSchema.parse({
    llms: {
      local: { provider: "openai-compatible", baseURL: "http://127.0.0.1:1/v1", model: "m" },
      offline: { provider: "offline" },
      both: { type: "fallback", chain: ["local", "offline"] },
    },
  });

describe("modelResolverFor", () => {
  it("builds each settings model once and hands the same one to every turn", () => {
    const current = settings();
    const resolver = modelResolverFor(current);
    expect(modelResolverFor(current)).toBe(resolver);
    expect(resolver.byName("local")).toBe(resolver.byName("local"));
    expect(resolver.byName("both")).toBe(resolver.byName("both"));
    expect(resolver.byName("local")).not.toBe(resolver.byName("offline"));
  });

  it("builds anew for reloaded settings, which are a new object", () => {
    const before = modelResolverFor(settings()).byName("local");
    const reloaded = modelResolverFor(settings());
    expect(reloaded.byName("local")).not.toBe(before);
    expect(reloaded.byName("local").modelId).toBe("m");
  });

  it("does not keep a name that failed to resolve", () => {
    const resolver = modelResolverFor(settings());
    expect(() => resolver.byName("missing")).toThrow(/no model named "missing"/);
    expect(() => resolver.byName("missing")).toThrow(/no model named "missing"/);
  });
});
