#!/usr/bin/env node
// The `toolroom` command: the TypeScript sources of bin/ and lib/, bundled (bin/bundle.mjs), so the
// CLI and the server share lib/.
import module from "node:module";
import { fileURLToPath } from "node:url";
import { execUnderNode22, nodeIsRecentEnough } from "../scripts/node22.mjs";

// On a Node older than the dependencies need, run again under Node 22 from the npm registry.
if (!nodeIsRecentEnough()) execUnderNode22(["node", fileURLToPath(import.meta.url), ...process.argv.slice(2)]);
// V8's compiled code of the bundle and the packages it loads, kept between runs: tests, evals and
// MCP clients start the CLI hundreds of times, and a start then costs a sixth less CPU. A folder it
// cannot write is skipped (the call reports it, never throws).
module.enableCompileCache?.(fileURLToPath(new URL("../node_modules/.cache/toolroom-compile", import.meta.url)));
const { loadCli } = await import("./bundle.mjs");
const { main } = await loadCli();
await main(process.argv);
