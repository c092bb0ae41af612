import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { codeFrame, firstFrameInside, locateImportError, parseCheckOutput } from "./import-error";

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-import-error-")));
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "typo", type: "module" }));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Line 17 has a stray comma at column 23, and five lines follow it (a count from the end would be off). */
function writeTypo(file: string): string {
  const lines = [
    ...Array.from({ length: 16 }, (_, i) => `// ${i + 1}`),
    "const counts = { a: 1,, b: 2 };",
    ...Array.from({ length: 5 }, () => "export const typo = {};"),
  ];
  const target = path.join(dir, file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, `${lines.join("\n")}\n`);
  return target;
}

describe("locateImportError", () => {
  it("finds a SyntaxError's line and column, which Node's import error does not carry", async () => {
    const file = writeTypo("tools.js");
    // What `import()` throws: a message and node:internal frames only.
    const error = new SyntaxError("Unexpected token ','");
    error.stack = "SyntaxError: Unexpected token ','\n    at compileSourceTextModule (node:internal/modules/esm/utils:346:16)";
    const location = await locateImportError(error, file, dir);
    expect(location).toMatchObject({ file, line: 17, column: 23 });
    expect(location?.frame).toContain("> 17 | const counts = { a: 1,, b: 2 };");
    expect(location?.frame.split("\n")[3]).toBe(`     | ${" ".repeat(22)}^`);
  });

  it("finds the error in a module the entry imports", async () => {
    const entry = path.join(dir, "index.js");
    fs.writeFileSync(entry, 'export { typo } from "./lib/helper.js";\n');
    const helper = writeTypo("lib/helper.js");
    expect(await locateImportError(new SyntaxError("Unexpected token ','"), entry, dir)).toMatchObject({ file: helper, line: 17, column: 23 });
  });

  it("takes other errors' location from the first stack frame inside the package, module query and all", () => {
    const stack = `TypeError: x\n    at file://${dir}/tools.js?v=123:4:37\n    at ModuleJob.run (node:internal/modules/esm/module_job:343:25)`;
    expect(firstFrameInside(stack, dir)).toEqual({ file: path.join(dir, "tools.js"), line: 4, column: 37 });
    expect(firstFrameInside("Error\n    at /elsewhere/x.js:1:2", dir)).toBeNull();
  });
});

describe("parseCheckOutput and codeFrame", () => {
  it("reads node --check's report", () => {
    expect(parseCheckOutput("/p/tools.js:17\nconst x = {a: 1,, b};\n                ^\n\nSyntaxError: Unexpected token ','\n")).toEqual({
      file: "/p/tools.js",
      line: 17,
      column: 17,
    });
  });

  it("numbers the lines around the failing one and marks the column", () => {
    expect(codeFrame("a\nb\nc\nd\ne\nf", 3, 2)).toBe("  1 | a\n  2 | b\n> 3 | c\n    |  ^\n  4 | d\n  5 | e");
  });
});
