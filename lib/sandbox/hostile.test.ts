import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grepCode } from "@/lib/builtins/grep";
import { listFiles, readFile } from "@/lib/builtins/files";
import { searchRepoMap } from "@/lib/builtins/repo-map";
import { searchCode } from "@/lib/builtins/search";
import { testContext } from "@/lib/testing/context";
import { hostilePaths as corpus, makeHostileTree, MARKER, write } from "@/lib/testing/hostile-tree";
import type { ToolContext, ToolDefinition } from "@/lib/tools/types";

// Made at load time: the path corpus below is built while tests are collected.
const tree = makeHostileTree();
const { root } = tree;
let ctx: ToolContext;

async function call(tool: ToolDefinition, input: Record<string, unknown>): Promise<string> {
  return String(await tool.execute(input, ctx));
}

beforeAll(() => {
  ctx = testContext({ sourceRoot: root, runsRoot: root, settings: { refreshIntervalMs: 0 } });
});

afterAll(() => {
  fs.rmSync(tree.tmp, { recursive: true, force: true });
});

const hostilePaths = () => corpus(tree);

describe("hostile paths through every file-taking tool", () => {
  it("has a corpus of at least 40 paths", () => {
    expect(hostilePaths().length).toBeGreaterThanOrEqual(40);
  });

  it.each(hostilePaths().map((p) => [JSON.stringify(p), p]))("%s is refused by list_files, read_file and grep_code", async (_label, p) => {
    for (const [tool, input] of [
      [listFiles, { path: p }],
      [readFile, { path: p }],
      [grepCode, { pattern: "secret|token|key|.", path: p }],
    ] as const) {
      const out = await call(tool, input);
      expect(out, `${tool.name}(${JSON.stringify(p)})`).toMatch(/^Error: /);
      expect(out).not.toContain(MARKER);
    }
  });

  it("says which rule refused: escape, NUL, .aiignore", async () => {
    expect(await call(readFile, { path: "../outside/secret.txt" })).toBe("Error: path escapes the source root: ../outside/secret.txt");
    expect(await call(readFile, { path: "link-file" })).toBe("Error: path escapes the source root: link-file");
    expect(await call(readFile, { path: "%2e%2e/outside/secret.txt" })).toMatch(/^Error: path escapes the source root/);
    expect(await call(readFile, { path: "a\0b" })).toMatch(/^Error: path contains a NUL byte: a\\x00b$/);
    expect(await call(readFile, { path: "id.key" })).toBe("Error: id.key is not accessible (excluded by .aiignore)");
  });

  it("lets through what the negations and deeper files re-include", async () => {
    expect(await call(readFile, { path: "public.key" })).toBe("public ok\n");
    expect(await call(readFile, { path: "nested/visible.env" })).toBe("visible env\n");
    expect(await call(readFile, { path: "nested/deeper/hidden.txt" })).toBe("deeper wins\n");
    expect(await call(readFile, { path: "a/b/c/fine.md" })).toBe("fine\n");
    expect(await call(readFile, { path: path.join(root, "ok.txt") })).toBe("hello from the root\n");
  });

  it("never lists, greps or indexes an ignored or out-of-root file", async () => {
    const listing = await call(listFiles, { path: "." });
    expect(listing).toContain("ok.txt");
    expect(listing).toContain("public.key");
    expect(listing).toContain("nested/deeper/hidden.txt");
    for (const hidden of [
      "secrets",
      "id.key",
      "private/x",
      "nested/hidden.txt",
      "nested/other.env",
      "a/b/c/deep.txt",
      "link-",
      "dangling",
      "alias-dir",
      ".toolroom",
    ]) {
      expect(listing).not.toContain(hidden);
    }
    expect(listing).not.toContain(MARKER);

    const grep = await call(grepCode, { pattern: MARKER, path: "." });
    expect(grep).toMatch(/^Found 0 match\(es\)/);
    const grepAll = await call(grepCode, { pattern: ".", path: ".", max_results: 500 });
    expect(grepAll).not.toContain(MARKER);

    for (const query of [MARKER, "secret token key outside", `${MARKER}_ignored`, "hidden env private deep"]) {
      // The "no results" answer echoes the query; only what comes from files counts.
      const found = (await call(searchCode, { query, k: 50 })).replace(`"${query}"`, "");
      expect(found).not.toContain(MARKER);
    }
    for (const query of ["topsecret", MARKER, "outside", "ignored", ""]) {
      const map = (await call(searchRepoMap, { query: query || "e" })).replace(`"${query || "e"}"`, "");
      expect(map).not.toContain(MARKER);
    }
    expect(await call(searchRepoMap, { query: "visibleThing" })).toContain("src/a.ts:1  const visibleThing");
  });

  it("drops a file from the indexes as soon as an .aiignore covers it", async () => {
    write(path.join(root, "src", "later.ts"), `export function laterSecretThing() { return "${MARKER}"; }\n`);
    expect(await call(searchCode, { query: "laterSecretThing" })).toContain(MARKER);
    expect(await call(searchRepoMap, { query: "laterSecretThing" })).toContain("src/later.ts");
    write(path.join(root, "src", ".aiignore"), "later.ts\n");
    // Even an index within its refresh interval (not re-walked) shows nothing of it.
    const lazy = testContext({ sourceRoot: root, settings: { refreshIntervalMs: 60_000 } });
    expect(String(await searchCode.execute({ query: "laterSecretThing" }, lazy))).not.toContain(MARKER);
    expect(String(await searchRepoMap.execute({ query: "laterSecretThing" }, lazy))).toMatch(/^Found 0/);
    expect(await call(searchCode, { query: "laterSecretThing" })).not.toContain(MARKER);
    expect(await call(searchRepoMap, { query: "laterSecretThing" })).toMatch(/^Found 0/);
    expect(await call(readFile, { path: "src/later.ts" })).toMatch(/^Error: .*excluded by \.aiignore/);
  });
});
