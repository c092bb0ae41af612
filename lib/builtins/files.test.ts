import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testContext } from "@/lib/testing/context";
import type { ToolContext } from "@/lib/tools/types";
import { listFiles, readFile } from "./files";

let root: string;
let ctx: ToolContext;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-files-"));
  fs.mkdirSync(path.join(root, "src", "empty"), { recursive: true });
  fs.mkdirSync(path.join(root, "node_modules", "dep"), { recursive: true });
  fs.writeFileSync(path.join(root, "node_modules", "dep", "index.js"), "x");
  fs.writeFileSync(path.join(root, "src", "main.ts"), "line1\nline2\nline3\nline4\n");
  fs.writeFileSync(path.join(root, "big.txt"), "x".repeat(9000));
  fs.writeFileSync(path.join(root, "image.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
  fs.writeFileSync(path.join(root, "unicode.txt"), "héllo — wörld\n");
  ctx = testContext({ sourceRoot: root });
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

// Inputs go straight to execute, unvalidated, as a plugin-less registry bypass would send them.
const list = async (p?: string) => String(await listFiles.execute((p === undefined ? {} : { path: p }) as never, ctx));
const read = async (input: Record<string, unknown>) => String(await readFile.execute(input as never, ctx));

describe("list_files", () => {
  it("lists recursively, relative to the root, folders suffixed /, skipping node_modules", async () => {
    expect(await list()).toBe(["big.txt", "image.png", "src/", "src/empty/", "src/main.ts", "unicode.txt"].join("\n"));
  });

  it("lists a subfolder with root-relative paths", async () => {
    expect(await list("src")).toBe("src/empty/\nsrc/main.ts");
  });

  it("says so for an empty folder", async () => {
    expect(await list("src/empty")).toBe("(empty directory)");
  });

  it("answers a missing path with an Error: line", async () => {
    expect(await list("nope")).toBe("Error: path not found: nope");
  });

  it("lists a folder the user asks for by name even when walks skip it", async () => {
    expect(await list("node_modules/dep")).toBe("node_modules/dep/index.js");
  });
});

describe("read_file", () => {
  it("reads a text file whole", async () => {
    expect(await read({ path: "src/main.ts" })).toBe("line1\nline2\nline3\nline4\n");
    expect(await read({ path: "unicode.txt" })).toBe("héllo — wörld\n");
  });

  it("reads a line range with offset and limit", async () => {
    expect(await read({ path: "src/main.ts", offset: 2, limit: 2 })).toBe("src/main.ts (lines 2-3 of 4):\nline2\nline3");
    expect(await read({ path: "src/main.ts", offset: 9 })).toBe("Error: offset 9 is past the end of src/main.ts (4 lines)");
  });

  it("truncates at 8000 characters with a marker", async () => {
    const out = await read({ path: "big.txt" });
    expect(out.startsWith("x".repeat(8000))).toBe(true);
    expect(out).toContain("\n... (truncated, 9000 total chars");
    expect(out.length).toBeLessThan(8100);
  });

  it("refuses binary files, folders and missing files with Error: lines", async () => {
    expect(await read({ path: "image.png" })).toBe("Error: image.png is a binary file (8 bytes); read_file shows text only");
    expect(await read({ path: "src" })).toMatch(/^Error: src is a directory/);
    expect(await read({ path: "src/missing.ts" })).toBe("Error: file not found: src/missing.ts");
    expect(await read({})).toBe("Error: path must be a string");
  });
});
