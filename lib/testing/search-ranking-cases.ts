/** Questions over lib/builtins/__fixtures__/search-repo and the file that defines what each asks about. */
export const SEARCH_RANKING_CASES: [query: string, definingFile: string][] = [
  ["load settings file", "src/config/loader.ts"],
  ["verify access token", "src/auth/tokens.ts"],
  ["LruCache evict oldest entry", "src/cache/lru.ts"],
  ["retry with exponential backoff", "src/util/retry.ts"],
  ["parse log line", "scripts/parse_logs.py"],
  ["compute percentiles", "scripts/metrics.py"],
  ["router addRoute", "src/http/router.ts"],
  ["validate settings schema", "src/config/schema.ts"],
  ["render_markdown_report", "scripts/report.py"],
  ["start the HTTP server", "src/http/server.ts"],
];
