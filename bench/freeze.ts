/**
 * The two freezes of issue #14: grep_code on a catastrophic-backtracking pattern, and the offline
 * model on a message full of "{". Both must be linear in their input.
 *
 *   npx tsx bench/freeze.ts
 *
 * grep_code: `(a+)+$` (exponential for V8's backtracking engine) against `a+!$` (a plain pattern)
 * on the same 1 MB file of "aaa…a!" lines, and V8's own time on one such line for scale.
 * Offline model: chooseTool on "read_file " + 10 KB / 80 KB of "{" (linear: 80 KB ≈ 8× 10 KB).
 * Text-protocol parser: pathological model text (runs of "{", marker prefixes, calls never
 * closed) at 100 KB and 800 KB, in 8-character chunks (linear: ≈ 8×).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { grepCode } from "@/lib/builtins/grep";
import { chooseTool } from "@/lib/chat/offline-model";
import { createTextCallParser } from "@/lib/chat/text-protocol/parser";
import { testContext } from "@/lib/testing/context";

const RUNS = 7;

async function median(fn: () => unknown): Promise<number> {
  await fn(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[RUNS >> 1]!;
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-freeze-"));
try {
  const line = `${"a".repeat(30)}!`;
  const lines = Math.floor((1024 * 1024 - 1) / (line.length + 1));
  fs.writeFileSync(path.join(root, "backtrack.txt"), `${line}\n`.repeat(lines));
  const ctx = testContext({ sourceRoot: root });
  const grep = (pattern: string) => async () => {
    const out = String(await grepCode.execute({ pattern, path: ".", max_results: 500 }, ctx));
    if (out.startsWith("Error")) throw new Error(out);
  };
  const evil = await median(grep("(a+)+$"));
  const plain = await median(grep("a+!$"));
  console.log(`grep_code, 1 MB of ${lines} lines "a{30}!", medians of ${RUNS}:`);
  console.log(`  (a+)+$  ${evil.toFixed(1)} ms`);
  console.log(`  a+!$    ${plain.toFixed(1)} ms`);
  console.log(`  ratio   ${(evil / plain).toFixed(2)}x`);
  for (const n of [20, 22, 24]) {
    const started = performance.now();
    /(a+)+$/.test(`${"a".repeat(n)}!`);
    console.log(`  V8 RegExp (a+)+$ on one line of ${n} "a"s + "!": ${(performance.now() - started).toFixed(0)} ms`);
  }

  const tools = [{ name: "read_file", argNames: ["path"] }];
  const offline = (kb: number) => () => chooseTool(`read_file ${"{".repeat(kb * 1024)}`, tools);
  const small = await median(offline(10));
  const big = await median(offline(80));
  console.log(`offline model, "read_file " + N KB of "{", medians of ${RUNS}:`);
  console.log(`  10 KB   ${small.toFixed(2)} ms`);
  console.log(`  80 KB   ${big.toFixed(2)} ms`);
  console.log(`  ratio   ${(big / small).toFixed(2)}x (linear: ~8x)`);

  const shapes: Record<string, (n: number) => string> = {
    '"{" run': (n) => "{".repeat(n),
    '"<tool_call" run': (n) => "<tool_call".repeat(n / 10),
    '"\\n<tool_ca" run': (n) => "\n<tool_ca".repeat(n / 9),
    '"\\nACTION" run': (n) => "\nACTION".repeat(n / 7),
    "json call never closed": (n) => `<tool_call>{"name": "read_file", "arguments": {"path": "${"{".repeat(n)}`,
    "action call never closed": (n) => `ACTION: read_file(path="${'\\"'.repeat(n / 2)}`,
  };
  console.log(`text-protocol parser, 8-character chunks, medians of ${RUNS}:`);
  for (const [name, make] of Object.entries(shapes)) {
    for (const protocol of ["json", "action"] as const) {
      const parse = (text: string) => () => {
        const parser = createTextCallParser(protocol, ["read_file"]);
        for (let i = 0; i < text.length; i += 8) parser.push(text.slice(i, i + 8));
        parser.end();
      };
      const a = await median(parse(make(100_000)));
      const b = await median(parse(make(800_000)));
      console.log(`  ${name.padEnd(26)} ${protocol.padEnd(6)} 100 KB ${a.toFixed(1)} ms, 800 KB ${b.toFixed(1)} ms, ${(b / a).toFixed(1)}x`);
    }
  }
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
