#!/usr/bin/env node
// The `toolroom` command: TypeScript sources run through tsx, so the CLI and the server share lib/.
import { fileURLToPath } from "node:url";
import { execUnderNode22, nodeIsRecentEnough } from "../scripts/node22.mjs";

// On a Node older than the dependencies need, run again under Node 22 from the npm registry.
if (!nodeIsRecentEnough()) execUnderNode22(["node", fileURLToPath(import.meta.url), ...process.argv.slice(2)]);
const { register } = await import("tsx/esm/api");

register({ tsconfig: new URL("../tsconfig.json", import.meta.url).pathname });
const { main } = await import("./cli.ts");
await main(process.argv);
