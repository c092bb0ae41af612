// `npm run build [-- --typecheck]`: next build, then record which sources the build was made from
// (scripts/build-stamp.mjs). next.config.ts leaves type errors to `npm test`'s tsc; `npm start`
// passes --typecheck so a build it makes on its own never serves code that does not type-check.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sourceFingerprint, writeStamp } from "./build-stamp.mjs";
import { withTelemetryOff } from "./next-env.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// Taken before the build, so an edit made while it runs still counts as a change.
const sources = sourceFingerprint(root);
if (process.argv.includes("--typecheck")) {
  const checked = spawnSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "--noEmit"], { cwd: root, stdio: "inherit" });
  if (checked.status !== 0) {
    console.error("toolroom: the sources do not type-check (above); not building.");
    process.exit(checked.status ?? 1);
  }
}
// Next adds the types folder of the build it makes to tsconfig.json; a build into another folder
// (NEXT_DIST_DIR: a bench, a parallel work tree) must not leave that edit in the checkout.
const tsconfig = path.join(root, "tsconfig.json");
const tsconfigBefore = fs.readFileSync(tsconfig, "utf8");
const result = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
  cwd: root,
  stdio: "inherit",
  env: withTelemetryOff(process.env),
});
if ((process.env.NEXT_DIST_DIR ?? ".next") !== ".next" && fs.readFileSync(tsconfig, "utf8") !== tsconfigBefore) fs.writeFileSync(tsconfig, tsconfigBefore);
if (result.status !== 0) process.exit(result.status ?? 1);
writeStamp(root, process.env.NEXT_DIST_DIR ?? ".next", sources);
