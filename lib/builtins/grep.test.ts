import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testContext } from "@/lib/testing/context";
import type { ToolContext } from "@/lib/tools/types";
import { grepCode } from "./grep";

let root: string;
let ctx: ToolContext;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-grep-"));
  fs.mkdirSync(path.join(root, "src"), { recursive: true });
  fs.mkdirSync(path.join(root, "dist"), { recursive: true });
  fs.writeFileSync(path.join(root, "src", "a.ts"), "const Alpha = 1;\nfunction beta() {}\nconst alphabet = 'x';\n");
  fs.writeFileSync(path.join(root, "src", "b.py"), "def alpha():\r\n    return 2\r\n");
  fs.writeFileSync(path.join(root, "dist", "bundle.js"), "alpha alpha alpha\n");
  fs.writeFileSync(path.join(root, "blob.dat"), Buffer.concat([Buffer.from("alpha"), Buffer.from([0, 1, 2])]));
  fs.writeFileSync(path.join(root, "huge.txt"), `alpha\n${"y".repeat(1024 * 1024)}`);
  fs.writeFileSync(path.join(root, "many.txt"), Array.from({ length: 50 }, (_, i) => `match ${i}`).join("\n"));
  // Three 64 KB chunks' worth of lines: matches in later chunks must keep their line numbers.
  fs.writeFileSync(path.join(root, "long.log"), Array.from({ length: 6000 }, (_, i) => (i % 2500 === 7 ? `hit ${i + 1}` : "x".repeat(40))).join("\n"));
  fs.writeFileSync(path.join(root, "evil.txt"), `${"a".repeat(30)}!\n${"a".repeat(30)}\n`);
  fs.symlinkSync(path.join(root, "src", "a.ts"), path.join(root, "link.ts"));
  ctx = testContext({ sourceRoot: root });
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const grep = async (input: Record<string, unknown>) => String(await grepCode.execute(input as never, ctx));

describe("grep_code", () => {
  it("finds lines case-insensitively as path:line: text, skipping build folders, binaries, symlinks and huge files", async () => {
    expect(await grep({ pattern: "alpha" })).toBe(
      [
        "Found 3 match(es):",
        "src/a.ts:1: const Alpha = 1;",
        "src/a.ts:3: const alphabet = 'x';",
        "src/b.py:1: def alpha():",
        "(skipped 1 file(s) over 1 MB)",
      ].join("\n"),
    );
  });

  it("matches case when asked and anchors per line", async () => {
    expect(await grep({ pattern: "^const A", case_sensitive: true, path: "src" })).toBe("Found 1 match(es):\nsrc/a.ts:1: const Alpha = 1;");
    expect(await grep({ pattern: "return 2$", path: "src/b.py" })).toBe("Found 1 match(es):\nsrc/b.py:2:     return 2");
  });

  it("stops at max_results and says there are more", async () => {
    const out = await grep({ pattern: "^match", path: "many.txt", max_results: 5 });
    const lines = out.split("\n");
    expect(lines[0]).toBe("Found 5+ match(es) (showing the first 5; stopped there — narrow the pattern or path for the rest):");
    expect(lines).toHaveLength(6);
    expect(await grep({ pattern: "^match", path: "many.txt", max_results: 50 })).toMatch(/^Found 50 match\(es\):/);
  });

  it("reports no matches and bad regexes plainly", async () => {
    expect(await grep({ pattern: "zzz_nothing" })).toBe('Found 0 match(es) for /zzz_nothing/ under "."\n(skipped 1 file(s) over 1 MB)');
    expect(await grep({ pattern: "(" })).toMatch(/^Error: invalid regular expression: /);
    expect(await grep({ pattern: "" })).toMatch(/^Error: /);
    expect(await grep({ pattern: "a", path: "../" })).toMatch(/^Error: path escapes the source root/);
  });

  it("runs a catastrophic-backtracking pattern in linear time, with V8's answers", async () => {
    // (a+)+$ over "aaa…a!" takes V8 2^30 steps: with a backtracking engine this test times out.
    expect(await grep({ pattern: "(a+)+$", path: "evil.txt" })).toBe(`Found 1 match(es):\nevil.txt:2: ${"a".repeat(30)}`);
    expect(await grep({ pattern: "^(a|aa)+$", path: "evil.txt", case_sensitive: true })).toBe(`Found 1 match(es):\nevil.txt:2: ${"a".repeat(30)}`);
  });

  it("reads JavaScript syntax and refuses what a linear engine cannot run, saying why", async () => {
    expect(await grep({ pattern: "(?<name>Alpha) = \\u0031", path: "src", case_sensitive: true })).toBe("Found 1 match(es):\nsrc/a.ts:1: const Alpha = 1;");
    expect(await grep({ pattern: "(?<=const )alpha\\w", path: "src" })).toBe("Found 1 match(es):\nsrc/a.ts:3: const alphabet = 'x';");
    expect(await grep({ pattern: "alpha(?=bet)" })).toMatch(/^Error: lookahead .* not supported: grep_code matches with RE2 \(linear time/);
    expect(await grep({ pattern: "(a)\\1" })).toMatch(/^Error: backreferences are not supported: /);
    expect(await grep({ pattern: "(?<c>a)\\k<c>" })).toMatch(/^Error: backreferences are not supported: /);
  });

  it("numbers lines across the chunks a large file is scanned in", async () => {
    expect(await grep({ pattern: "^hit \\d+$", path: "long.log" })).toBe(
      ["Found 3 match(es):", "long.log:8: hit 8", "long.log:2508: hit 2508", "long.log:5008: hit 5008"].join("\n"),
    );
  });
});
