import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testContext } from "@/lib/testing/context";
import type { ToolContext } from "@/lib/tools/types";
import { pythonSymbols, searchRepoMap, typescriptSymbols } from "./repo-map";

const FIXTURE = path.join(import.meta.dirname, "__fixtures__", "search-repo");

let root: string;
let ctx: ToolContext;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-repomap-"));
  fs.cpSync(FIXTURE, root, { recursive: true });
  ctx = testContext({ sourceRoot: root });
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const map = async (query: string) => String(await searchRepoMap.execute({ query }, ctx));

describe("search_repo_map", () => {
  it("finds a function by a substring of its name, case-insensitively", async () => {
    expect(await map("settingsfile")).toBe("Found 1 matching entries:\nsrc/config/loader.ts:20  function loadSettingsFile(filePath: string): Settings");
  });

  it("lists classes, methods, interfaces and Python definitions", async () => {
    const out = await map("cache");
    expect(out).toContain("src/cache/lru.ts:2  class LruCache<K, V>");
    expect(out).toContain("src/cache/lru.ts:22  method LruCache.evictOldest(): void");
    expect(await map("percentiles")).toContain(
      "scripts/metrics.py:5  def compute_percentiles(values: list[float], percentiles=(50, 90, 99)) -> dict[int, float]",
    );
    expect(await map("HistogramBuckets.add")).toBe("Found 1 matching entries:\nscripts/metrics.py:24  def HistogramBuckets.add(self, value: float) -> None");
    expect(await map("interface settings")).toBe("Found 1 matching entries:\nsrc/config/schema.ts:2  interface Settings");
  });

  it("caps the answer at 30 lines and says how many more", async () => {
    const out = await map(":");
    const lines = out.split("\n");
    expect(lines[0]).toMatch(/^Found \d+ matching entries:$/);
    expect(lines.length).toBeLessThanOrEqual(32);
    expect(await map("no_such_symbol_anywhere")).toBe('Found 0 matching entries for "no_such_symbol_anywhere".');
    expect(await map("")).toMatch(/^Error:/);
  });
});

describe("pythonSymbols", () => {
  it("skips definitions inside strings and brackets, qualifies methods, joins multi-line headers", () => {
    const src = [
      'DOC = """',
      "def not_real(x):",
      '"""',
      "class Outer(Base):",
      "    '''doc with def fake(): inside'''",
      "    async def method(",
      "        self,",
      "        arg: int = 3,  # comment (with paren",
      "    ) -> str:",
      "        def inner(): pass",
      "        return 'def nope():'",
      "items = [",
      "def also_not_real(): pass",
      "]",
      "def after(a, b='x:y'):",
      "    pass",
    ].join("\n");
    expect(pythonSymbols(src)).toEqual([
      [4, "class Outer(Base)"],
      [6, "async def Outer.method( self, arg: int = 3, ) -> str"],
      [10, "def Outer.method.inner()"],
      [15, "def after(a, b='x:y')"],
    ]);
  });
});

describe("typescriptSymbols", () => {
  it("covers functions, arrow constants, classes, types, enums and namespaces", () => {
    const src = [
      "export function f<T>(a: T, b = 2): T { return a; }",
      "const g = async (x: string): Promise<void> => {};",
      "export const LIMIT: number = 3;",
      "const internal = 4;",
      "export class C extends Base implements I { constructor(private x: number) { super(); } m(): void {} get v(): number { return 1; } h = () => 1; }",
      "export type Id = string | number;",
      "export enum Color { Red }",
      "namespace N { export function inner() {} }",
    ].join("\n");
    expect(typescriptSymbols(ts, src, "x.ts").map(([, s]) => s)).toEqual([
      "function f<T>(a: T, b = 2): T",
      "const g = (x: string): Promise<void> =>",
      "const LIMIT: number",
      "class C extends Base implements I",
      "method C.constructor(private x: number)",
      "method C.m(): void",
      "get C.v(): number",
      "method C.h()",
      "type Id = string | number",
      "enum Color",
      "namespace N",
      "function N.inner()",
    ]);
  });
});
