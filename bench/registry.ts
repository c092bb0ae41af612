// Cold registry build over 200 generated plugin packages, against plain import() of the same 200
// files, in one script (this machine is noisy: compare ratios, not absolute times).
// Run: npx tsx bench/registry.ts
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildRegistry } from "@/lib/tools/registry";
import { testContext } from "@/lib/testing/context";

const COUNT = 200;

function generate(root: string, tag: string): string {
  const nodeModules = path.join(root, tag, "node_modules");
  for (let i = 0; i < COUNT; i++) {
    const dir = path.join(nodeModules, `bench-plugin-${i}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ name: `bench-plugin-${i}`, version: "1.0.0", type: "module", toolroom: { tools: { [`bench_tool_${i}`]: "./index.js#tool" } } }),
    );
    fs.writeFileSync(
      path.join(dir, "index.js"),
      `export const tool = { name: "bench_tool_${i}", description: "Generated tool ${i}.\\n\\nArgs: text.", input: { jsonSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }, execute: async ({ text }) => text };\n`,
    );
  }
  return nodeModules;
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-bench-registry-"));
// Two identical trees: each measurement imports fresh files (the module cache would hide the cost).
const baselineModules = generate(root, "baseline");
const registryModules = generate(root, "registry");

let started = performance.now();
await Promise.all(Array.from({ length: COUNT }, (_, i) => import(pathToFileURL(path.join(baselineModules, `bench-plugin-${i}`, "index.js")).href)));
const baselineMs = performance.now() - started;

started = performance.now();
const registry = await buildRegistry({
  builtins: [],
  builtinPackage: { name: "toolroom", version: "0", dir: root },
  nodeModules: [registryModules],
  metadataContext: testContext(),
  log: () => {},
});
const registryMs = performance.now() - started;

if (registry.tools.length !== COUNT) throw new Error(`expected ${COUNT} tools, got ${registry.tools.length}`);
console.log(`plain import() of ${COUNT} files: ${baselineMs.toFixed(0)} ms`);
console.log(`cold registry build (${COUNT} packages): ${registryMs.toFixed(0)} ms`);
console.log(`ratio registry / import: ${(registryMs / baselineMs).toFixed(2)} (target ≤ 1.5; build ≤ 1000 ms)`);
fs.rmSync(root, { recursive: true, force: true });
