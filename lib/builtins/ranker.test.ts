import { describe, expect, it } from "vitest";
import { createRanker, tokenize } from "./ranker";

describe("tokenize", () => {
  it("keeps identifiers whole and splits camelCase, PascalCase and snake_case", () => {
    expect(tokenize("parseHTTPRequest load_settings_file")).toEqual([
      "parsehttprequest",
      "parse",
      "http",
      "request",
      "load_settings_file",
      "load",
      "setting",
      "file",
    ]);
  });

  it("lowercases, folds plurals and drops stopwords and single letters", () => {
    expect(tokenize("The Tokens of a x Query")).toEqual(["token", "query"]);
  });
});

describe("createRanker", () => {
  const ranker = createRanker([
    { id: 1, text: "calls loadSettings and loadSettings again", boost: "app.ts" },
    { id: 2, text: "function loadSettings(path) { read the file }", boost: "settings.ts loadSettings" },
    { id: 3, text: "nothing relevant here" },
  ]);

  it("ranks the document whose boost names the term above one that only uses it", () => {
    const results = ranker.search("load settings", 10);
    expect(results.map((r) => r.id)).toEqual([2, 1]);
    expect(results[0]!.score).toBeGreaterThan(results[1]!.score);
  });

  it("returns nothing for unknown or empty queries and honours k", () => {
    expect(ranker.search("zebra", 5)).toEqual([]);
    expect(ranker.search("", 5)).toEqual([]);
    expect(ranker.search("settings", 1)).toHaveLength(1);
  });
});
