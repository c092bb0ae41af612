import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAiIgnored } from "./aiignore";
import { resolveWithin } from "./resolve";
import { walkSync } from "./walk";

let root: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-resolve-"));
  fs.mkdirSync(path.join(root, "src", "sub"), { recursive: true });
  fs.writeFileSync(path.join(root, "src", "a.ts"), "a");
  fs.writeFileSync(path.join(root, "src", "sub", "b.ts"), "b");
  for (const dir of ["node_modules/x", ".git", "dist", "pkg.egg-info", "__pycache__", ".toolroom/cache", ".venv"]) {
    fs.mkdirSync(path.join(root, dir), { recursive: true });
    fs.writeFileSync(path.join(root, dir, "f.txt"), "skip me");
  }
  fs.writeFileSync(path.join(root, "mod.pyc"), "bytecode");
  fs.symlinkSync("src", path.join(root, "src-link"));
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("resolveWithin", () => {
  it("admits paths inside the root and reports them relative to the real root", () => {
    const r = resolveWithin(root, "src/sub/../a.ts");
    expect(r.ok && r.rel).toBe("src/a.ts");
    const dot = resolveWithin(root, "");
    expect(dot.ok && dot.rel).toBe(".");
    const abs = resolveWithin(root, path.join(root, "src"));
    expect(abs.ok && abs.rel).toBe("src");
  });

  it("follows symlinks that stay inside, to their real target", () => {
    const r = resolveWithin(root, "src-link/a.ts");
    expect(r.ok && r.rel).toBe("src/a.ts");
  });

  it("admits a path that does not exist yet, with a null stat", () => {
    const r = resolveWithin(root, "src/new-file.ts");
    expect(r.ok && r.stat).toBeNull();
  });

  it("labels the root in the escape message", () => {
    const r = resolveWithin(root, "../x", { label: "run root" });
    expect(!r.ok && r.error).toBe("Error: path escapes the run root: ../x");
  });

  it("does not mistake names starting with two dots for traversal", () => {
    fs.writeFileSync(path.join(root, "..hidden"), "dots");
    const r = resolveWithin(root, "..hidden");
    expect(r.ok && r.rel).toBe("..hidden");
  });

  it("refuses paths no filesystem can hold with a message, and answers deep ones in linear time", () => {
    const long = resolveWithin(root, "a".repeat(8000));
    expect(!long.ok && long.error).toMatch(/^Error: path is 8000 characters long; the limit is 4096: a{200}…$/);
    const name = resolveWithin(root, `src/${"b".repeat(300)}`);
    expect(!name.ok && name.error).toMatch(/^Error: a path component is longer than 255 bytes/);
    // 2,000 folders deep: rebuilding the .aiignore stack per ancestor took minutes here.
    const deep = resolveWithin(root, "a/".repeat(2000));
    expect(deep.ok && deep.rel).toBe(Array(2000).fill("a").join("/"));
  });

  it("refuses non-strings without throwing", () => {
    expect(resolveWithin(root, 42).ok).toBe(false);
    expect(resolveWithin(root, undefined).ok).toBe(false);
  });
});

describe(".aiignore", () => {
  it("re-reads a changed .aiignore (cached by mtime)", () => {
    const file = path.join(root, ".aiignore");
    fs.writeFileSync(file, "src/a.ts\n");
    expect(isAiIgnored(fs.realpathSync(root), "src/a.ts", false)).toBe(true);
    fs.writeFileSync(file, "# nothing ignored any more, and a longer file so the size changes too\n");
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(file, later, later);
    expect(isAiIgnored(fs.realpathSync(root), "src/a.ts", false)).toBe(false);
    fs.rmSync(file);
  });

  it("matches folder patterns against folders and everything under them", () => {
    fs.writeFileSync(path.join(root, ".aiignore"), "sub/\n");
    const real = fs.realpathSync(root);
    expect(isAiIgnored(real, "src/sub", true)).toBe(true);
    expect(isAiIgnored(real, "src/sub/b.ts", false)).toBe(true);
    expect(isAiIgnored(real, "src/a.ts", false)).toBe(false);
    fs.rmSync(path.join(root, ".aiignore"));
  });
});

describe("walkSync", () => {
  it("skips build and cache folders, .pyc files and symlinks", () => {
    const rels = [...walkSync(fs.realpathSync(root), ".", { includeDirs: true })].map((e) => (e.isDir ? `${e.rel}/` : e.rel));
    expect(rels).toEqual(["..hidden", "src/", "src/a.ts", "src/sub/", "src/sub/b.ts"]);
  });

  it("walks from a subfolder", () => {
    const rels = [...walkSync(fs.realpathSync(root), "src/sub")].map((e) => e.rel);
    expect(rels).toEqual(["src/sub/b.ts"]);
  });
});
