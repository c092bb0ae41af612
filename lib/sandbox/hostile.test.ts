import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grepCode } from "@/lib/builtins/grep";
import { listFiles, readFile } from "@/lib/builtins/files";
import { searchRepoMap } from "@/lib/builtins/repo-map";
import { searchCode } from "@/lib/builtins/search";
import { testContext } from "@/lib/testing/context";
import type { ToolContext, ToolDefinition } from "@/lib/tools/types";

// Written into every out-of-root and .aiignored file: it must never come back from a tool.
const MARKER = "TOPSECRET_7f3a9";

// Made at load time: the path corpus below is built while tests are collected.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-hostile-"));
const root = path.join(tmp, "root");
const outside = path.join(tmp, "outside");
let ctx: ToolContext;

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

async function call(tool: ToolDefinition, input: Record<string, unknown>): Promise<string> {
  return String(await tool.execute(input, ctx));
}

beforeAll(() => {
  write(path.join(outside, "secret.txt"), `outside ${MARKER}\n`);
  write(path.join(outside, "dir", "secret2.txt"), `outside dir ${MARKER}\n`);
  write(path.join(outside, "evil.ts"), `export function ${MARKER}_outside() {}\n`);

  write(path.join(root, "ok.txt"), "hello from the root\n");
  write(path.join(root, "src", "a.ts"), "export const visibleThing = 1;\n");
  write(path.join(root, ".aiignore"), ["secrets/", "*.key", "!public.key", "private/**", ""].join("\n"));
  write(path.join(root, "secrets", "token.txt"), `token ${MARKER}\n`);
  write(path.join(root, "secrets", "evil.ts"), `export function ${MARKER}_ignored() { return "${MARKER}"; }\n`);
  // A deeper `!` cannot re-include a file whose folder is excluded (git semantics).
  write(path.join(root, "secrets", ".aiignore"), "!token.txt\n");
  write(path.join(root, "id.key"), `key ${MARKER}\n`);
  write(path.join(root, "public.key"), "public ok\n");
  write(path.join(root, "private", "x", "y.txt"), `private ${MARKER}\n`);
  write(path.join(root, "nested", ".aiignore"), ["hidden.txt", "*.env", "!visible.env", ""].join("\n"));
  write(path.join(root, "nested", "hidden.txt"), `nested ${MARKER}\n`);
  write(path.join(root, "nested", "other.env"), `env ${MARKER}\n`);
  write(path.join(root, "nested", "visible.env"), "visible env\n");
  write(path.join(root, "nested", "deeper", ".aiignore"), ["!hidden.txt", "secret.md", ""].join("\n"));
  write(path.join(root, "nested", "deeper", "hidden.txt"), "deeper wins\n");
  write(path.join(root, "nested", "deeper", "secret.md"), `deeper ${MARKER}\n`);
  write(path.join(root, "a", "b", "c", ".aiignore"), "*.txt\n");
  write(path.join(root, "a", "b", "c", "deep.txt"), `deep ${MARKER}\n`);
  write(path.join(root, "a", "b", "c", "fine.md"), "fine\n");

  fs.symlinkSync("../outside/secret.txt", path.join(root, "link-file"));
  fs.symlinkSync("../outside/dir", path.join(root, "link-dir"));
  fs.symlinkSync(outside, path.join(root, "link-abs"));
  fs.mkdirSync(path.join(root, "src", "deep"), { recursive: true });
  fs.symlinkSync("../../../outside", path.join(root, "src", "deep", "link-up"));
  fs.symlinkSync("../outside/nonexistent", path.join(root, "dangling"));
  fs.symlinkSync("secrets/token.txt", path.join(root, "link-to-ignored"));
  fs.symlinkSync("secrets", path.join(root, "alias-dir"));
  write(path.join(root, ".toolroom", "cache", "search-index.jsonl"), `cached ${MARKER}\n`);

  ctx = testContext({ sourceRoot: root, runsRoot: root, settings: { refreshIntervalMs: 0 } });
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function hostilePaths(): string[] {
  return [
    // traversal
    "..",
    "../",
    "../outside/secret.txt",
    "../../etc/passwd",
    "src/../../outside/secret.txt",
    "./../outside",
    "src/../../../",
    "ok.txt/../../outside/secret.txt",
    "..//..//outside/secret.txt",
    "src/./../../outside/dir/secret2.txt",
    // absolute
    "/etc/passwd",
    path.join(outside, "secret.txt"),
    "/",
    "//etc/passwd",
    path.join(root, "..", "outside", "secret.txt"),
    // symlinks, file and folder form
    "link-file",
    "link-dir",
    "link-dir/secret2.txt",
    "link-abs/secret.txt",
    "link-abs",
    "src/deep/link-up/secret.txt",
    "src/deep/link-up",
    "dangling",
    // URL-encoded
    "%2e%2e/outside/secret.txt",
    "%2e%2e%2foutside%2fsecret.txt",
    "%252e%252e%252foutside%252fsecret.txt",
    "..%2foutside%2fsecret.txt",
    "%2Fetc%2Fpasswd",
    "src%2f..%2f..%2foutside%2fsecret.txt",
    // NUL bytes
    "ok.txt\0../../outside/secret.txt",
    "id.key\0",
    "%00../outside/secret.txt",
    // Windows-style
    "..\\outside\\secret.txt",
    "..\\..\\x",
    "C:\\Windows\\win.ini",
    "C:/outside/secret.txt",
    "\\\\server\\share\\secret.txt",
    "src\\..\\..\\outside\\secret.txt",
    // .aiignore at several depths, negations that must not re-include
    "secrets/token.txt",
    "secrets",
    "secrets/",
    "secrets/evil.ts",
    "id.key",
    "./id.key",
    "src/../id.key",
    "private/x/y.txt",
    "private/x",
    "private/x/",
    "nested/hidden.txt",
    "nested/other.env",
    "nested/deeper/secret.md",
    "a/b/c/deep.txt",
    "link-to-ignored",
    "alias-dir/token.txt",
    "alias-dir",
    "secrets/../secrets/token.txt",
    // our own cache
    ".toolroom/cache/search-index.jsonl",
    ".toolroom/cache",
  ];
}

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
