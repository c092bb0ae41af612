import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileIndex } from "@/lib/sandbox/file-index";
import { testContext } from "@/lib/testing/context";
import type { ToolContext } from "@/lib/tools/types";
import { forEachEncodedDoc } from "./ranker";
import { chunkFile, definedSymbols, SEARCH_INDEX_VERSION, searchCode, type SearchFileData } from "./search";
import { SEARCH_RANKING_CASES } from "@/lib/testing/search-ranking-cases";

const FIXTURE = path.join(import.meta.dirname, "__fixtures__", "search-repo");

let root: string;
let ctx: ToolContext;

beforeAll(() => {
  // A copy: the index writes its cache under the root, and the fixture must stay clean.
  root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-search-"));
  fs.cpSync(FIXTURE, root, { recursive: true });
  ctx = testContext({ sourceRoot: root, settings: { refreshIntervalMs: 0 } });
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const search = async (query: string, k?: number) => String(await searchCode.execute({ query, k }, ctx));
const firstPath = (out: string) => /^--- Result 1: (\S+) \(lines \d+-\d+\) ---/.exec(out)?.[1] ?? null;

describe("search_code", () => {
  it("ranks the defining file first for at least 8 of 10 queries", async () => {
    const failed: string[] = [];
    for (const [query, expected] of SEARCH_RANKING_CASES) {
      const got = firstPath(await search(query, 5));
      if (got !== expected) failed.push(`"${query}": expected ${expected}, got ${got}`);
    }
    if (failed.length > 0) console.log(`search_code ranking misses:\n  ${failed.join("\n  ")}`);
    expect(SEARCH_RANKING_CASES.length - failed.length).toBeGreaterThanOrEqual(8);
  });

  it("answers in result blocks with line ranges and snippets", async () => {
    const out = await search("verifyAccessToken", 2);
    expect(out).toMatch(/^--- Result 1: src\/auth\/tokens\.ts \(lines 1-\d+\) ---\n/);
    expect(out).toContain("export function verifyAccessToken(token: string, secret: string)");
    expect(out.match(/^--- Result \d+:/gm)).toHaveLength(2);
  });

  it("says when nothing matches and refuses an empty query", async () => {
    expect(await search("qqqxyzzy")).toBe('No results for "qqqxyzzy".');
    expect(await search("   ")).toBe("Error: query must not be empty");
  });

  it("caches the index on disk and picks up changed files", async () => {
    const cacheFile = path.join(fs.realpathSync(root), ".toolroom", "cache", "search-index.jsonl");
    expect(fs.existsSync(cacheFile)).toBe(true);
    fs.writeFileSync(path.join(root, "src", "util", "retry.ts"), "export function frobnicateWidgets() { return 1; }\n");
    expect(firstPath(await search("frobnicate widgets"))).toBe("src/util/retry.ts");
    fs.rmSync(path.join(root, "src", "util", "retry.ts"));
    expect(await search("frobnicateWidgets")).toBe('No results for "frobnicateWidgets".');

    // A fresh index (another process) loads the records from disk instead of recomputing them.
    let computed = 0;
    const fresh = new FileIndex<SearchFileData>({
      rootAbs: fs.realpathSync(root),
      cacheFile,
      version: SEARCH_INDEX_VERSION,
      maxBytes: 1024 * 1024,
      compute: (text, rel) => {
        computed++;
        return chunkFile(text, rel);
      },
    });
    const changes = await fresh.refresh();
    expect(changes.changed.length).toBeGreaterThan(10);
    expect(computed).toBe(0);
  });
});

describe("chunking", () => {
  it("splits into overlapping 40-line windows", () => {
    const text = Array.from({ length: 100 }, (_, i) => `line${i}`).join("\n");
    const ranges: number[] = [];
    const lens: number[] = [];
    forEachEncodedDoc(chunkFile(text, "x.txt"), (start, end, len) => {
      ranges.push(start, end);
      lens.push(len);
    });
    expect(ranges).toEqual([1, 40, 31, 70, 61, 100]);
    expect(lens).toEqual([40, 40, 40]);
  });

  it("finds definitions in TypeScript and Python", () => {
    const names = definedSymbols(
      "export async function fooBar() {}\nclass Baz {\n  quxMethod(a: number): void {\n    if (a) {}\n  }\n}\ndef snake_case(x):\n    pass\n",
    ).map((d) => `${d.line}:${d.name}`);
    expect(names.sort()).toEqual(["0:fooBar", "1:Baz", "2:quxMethod", "6:snake_case"].sort());
  });
});
