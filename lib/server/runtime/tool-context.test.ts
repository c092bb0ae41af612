import { describe, expect, it } from "vitest";
import { settingsSchema } from "@/lib/settings/schema";
import { createToolContext } from "./tool-context";

describe("createToolContext", () => {
  it("gives every tool search.cacheDir as its cache folder unless tools.<name>.cacheDir says otherwise", () => {
    const settings = settingsSchema.parse({
      sourceRoot: "/srv/repo",
      search: { cacheDir: "/var/cache/toolroom" },
      tools: { search_runs: { cacheDir: "runs-cache" } },
    });
    expect(createToolContext({ settings, toolName: "search_code" }).settings.cacheDir).toBe("/var/cache/toolroom");
    expect(createToolContext({ settings, toolName: "search_runs" }).settings.cacheDir).toBe("runs-cache");
  });
});
