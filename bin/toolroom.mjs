#!/usr/bin/env node
// The `toolroom` command: the TypeScript sources of bin/ and lib/, bundled (bin/bundle.mjs), so the
// CLI and the server share lib/.
import { fileURLToPath } from "node:url";
import { execUnderNode22, nodeIsRecentEnough } from "../scripts/node22.mjs";

// On a Node older than the dependencies need, run again under Node 22 from the npm registry.
if (!nodeIsRecentEnough()) execUnderNode22(["node", fileURLToPath(import.meta.url), ...process.argv.slice(2)]);
const { loadCli } = await import("./bundle.mjs");
const { main } = await loadCli();
await main(process.argv);
