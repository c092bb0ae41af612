#!/usr/bin/env node
// The `toolroom` command. In a clone: the TypeScript sources of bin/ and lib/, bundled
// (bin/bundle.mjs), so the CLI and the server share lib/. In the npm package: the bundle and the
// prebuilt server that `npm pack` put in dist/ (scripts/pack.mjs).
import fs from "node:fs";
import module from "node:module";
import { fileURLToPath } from "node:url";
import { execUnderNode22, nodeIsRecentEnough } from "../scripts/node22.mjs";

// The package ships dist/ and not the sources; a clone has the sources (and a dist/ while `npm pack` runs).
const packed = fileURLToPath(new URL("../dist/pack.json", import.meta.url));
const isPackage = !fs.existsSync(new URL("./cli.ts", import.meta.url)) && fs.existsSync(packed);
const addon = isPackage ? JSON.parse(fs.readFileSync(packed, "utf8")).addon : null;
// On a Node older than the dependencies need (or, in the package, one its prebuilt SQLite addon was
// not compiled for), run again under Node 22 from the npm registry.
const nodeFits = addon ? addon.nodeModuleVersion === process.versions.modules : nodeIsRecentEnough();
if (!nodeFits) await execUnderNode22(["node", fileURLToPath(import.meta.url), ...process.argv.slice(2)], { exactly22: !!addon });
if (addon) {
  if (addon.platform !== process.platform || addon.arch !== process.arch) {
    console.error(
      `toolroom: this package's prebuilt server is for ${addon.platform}-${addon.arch} (its SQLite addon is compiled), not ${process.platform}-${process.arch}; run Toolroom from a clone here (npm install && npm start).`,
    );
    process.exit(2);
  }
  // V8's compiled code, kept between runs in Node's own cache folder (the package's may be read-only).
  module.enableCompileCache?.();
  const cli = fileURLToPath(new URL("../dist/cli/cli.mjs", import.meta.url));
  // The program is the bundle: Toolroom's own folder (lib/settings/install-dir.ts) is found from it.
  process.argv[1] = cli;
  const { main } = await import(cli);
  await main(process.argv);
} else {
  // V8's compiled code of the bundle and the packages it loads, kept between runs: tests, evals and
  // MCP clients start the CLI hundreds of times, and a start then costs a sixth less CPU. A folder it
  // cannot write is skipped (the call reports it, never throws).
  module.enableCompileCache?.(fileURLToPath(new URL("../node_modules/.cache/toolroom-compile", import.meta.url)));
  const { loadCli } = await import("./bundle.mjs");
  const { main } = await loadCli();
  await main(process.argv);
}
