import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findExportRange, readToolSource } from "./source-code";

describe("findExportRange", () => {
  it("finds export const and its closing line", () => {
    const code = ["import x from 'y';", "", "export const countWords = {", "  name: 'count_words',", "};", "export const other = 1;"].join("\n");
    expect(findExportRange(code, "countWords")).toEqual({ start: 3, end: 5 });
    expect(findExportRange(code, "other")).toEqual({ start: 6, end: 6 });
  });

  it("finds export function, export default, CommonJS and export lists", () => {
    expect(findExportRange("a\nexport async function run(x) {\n  return x;\n}\n", "run")).toEqual({ start: 2, end: 4 });
    expect(findExportRange("a\nexport default {\n  name: 'x',\n};\n", "default")).toEqual({ start: 2, end: 4 });
    expect(findExportRange("exports.tool = {\n};\n", "tool")).toEqual({ start: 1, end: 2 });
    expect(findExportRange("const local = {\n  a: 1,\n};\nexport { local as tool };\n", "tool")).toEqual({ start: 1, end: 3 });
    expect(findExportRange("export const toolbox = 1;\n", "tool")).toBeNull();
  });

  it("finds the built-ins' own exports in this repository", () => {
    const code = fs.readFileSync("lib/builtins/files.ts", "utf8");
    expect(findExportRange(code, "readFile")?.start).toBeGreaterThan(0);
  });
});

describe("readToolSource", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-src-"));
  const pkg = path.join(root, "pkg");
  fs.mkdirSync(pkg);
  fs.writeFileSync(path.join(pkg, "tools.js"), "export const a = {\n  name: 'a',\n};\n");
  fs.writeFileSync(path.join(root, "secret.js"), "export const s = 1;\n");
  fs.symlinkSync(path.join(root, "secret.js"), path.join(pkg, "link.js"));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it("reads the entry inside the package folder", () => {
    const r = readToolSource(pkg, "./tools.js", "a");
    expect(r).toMatchObject({ ok: true, rel: "tools.js", lang: "javascript", truncated: false, exportRange: { start: 1, end: 3 } });
  });

  it("refuses paths escaping the package folder, by .. or by symlink", () => {
    expect(readToolSource(pkg, "../secret.js", "s")).toMatchObject({ ok: false, error: expect.stringContaining("escapes the package folder") });
    expect(readToolSource(pkg, "link.js", "s")).toMatchObject({ ok: false });
    expect(readToolSource(pkg, "/etc/passwd", "s")).toMatchObject({ ok: false });
    expect(readToolSource(pkg, "missing.js", "s")).toMatchObject({ ok: false, error: expect.stringContaining("not a file") });
  });

  it("caps the size at a line boundary", () => {
    fs.writeFileSync(path.join(pkg, "big.js"), `${"// filler line\n".repeat(1000)}export const late = 1;\n`);
    const r = readToolSource(pkg, "big.js", "late", 1000);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.truncated).toBe(true);
    expect(r.code.length).toBeLessThanOrEqual(1000);
    expect(r.code.endsWith("// filler line")).toBe(true);
    expect(r.exportRange).toBeNull();
  });
});

describe("readToolSource through a source map", () => {
  const sample = path.resolve("examples/plugins/toolroom-plugin-sample");

  it("shows the TypeScript a built entry's map points to, naming the built file", () => {
    const source = readToolSource(sample, "./dist/tools.js", "sampleSaveNote");
    expect(source).toMatchObject({ ok: true, rel: "src/tools.ts", compiledFrom: "dist/tools.js", lang: "typescript" });
    expect(source.ok && source.code).toContain("ctx.files.resolve(");
    expect(source.ok && source.exportRange?.start).toBeGreaterThan(0);
  });

  it("keeps the built file when the map leads outside the package or names several sources", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-map-"));
    try {
      fs.mkdirSync(path.join(root, "pkg", "dist"), { recursive: true });
      fs.writeFileSync(path.join(root, "outside.ts"), "export const secret = 1;\n");
      fs.writeFileSync(path.join(root, "pkg", "dist", "a.js"), "export const a = 1;\n//# sourceMappingURL=a.js.map\n");
      fs.writeFileSync(path.join(root, "pkg", "dist", "a.js.map"), JSON.stringify({ version: 3, sources: ["../../outside.ts"], mappings: "" }));
      expect(readToolSource(path.join(root, "pkg"), "dist/a.js", "a")).toMatchObject({ ok: true, rel: "dist/a.js" });
      fs.writeFileSync(path.join(root, "pkg", "dist", "a.js.map"), JSON.stringify({ version: 3, sources: ["../x.ts", "../y.ts"], mappings: "" }));
      expect(readToolSource(path.join(root, "pkg"), "dist/a.js", "a")).toMatchObject({ ok: true, rel: "dist/a.js" });
      expect(readToolSource(path.join(root, "pkg"), "dist/a.js", "a")).not.toHaveProperty("compiledFrom");
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
