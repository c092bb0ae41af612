// `npm start`: check settings, apply migrations, build when the build is missing or older than the
// sources (a `git pull`, an edit), serve (on loopback unless HOST / server.host say otherwise; then
// with an access token, printed once).
import { spawnSync, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";
import { servedFrom, staleReason } from "./build-stamp.mjs";
import { buildingMessage, nextStartArgs, withTelemetryOff } from "./next-env.mjs";
import { servingLines, stopWithServer } from "./serving.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
// The build and the server inherit it: no Next.js telemetry from a local tool (docs/configuration.md).
process.env = withTelemetryOff(process.env);
register({ tsconfig: path.join(root, "tsconfig.json") });

const { preflight } = await import("./preflight.ts");
const { host, port, token } = await preflight();

const step = (args) => {
  const result = spawnSync(process.execPath, args, { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
step(["scripts/migrate.mjs", "deploy"]);
// next.config.ts builds into NEXT_DIST_DIR when set (parallel work trees); look for the build there.
const distDir = process.env.NEXT_DIST_DIR ?? ".next";
const stale = process.env.TOOLROOM_REBUILD === "1" ? "TOOLROOM_REBUILD=1" : staleReason(root, distDir);
if (stale) {
  console.log(buildingMessage(stale, !process.env.TOOLROOM_REBUILD && stale === "there is no build yet"));
  const started = Date.now();
  step(["scripts/build.mjs", "--typecheck"]);
  console.log(`toolroom: built in ${Math.round((Date.now() - started) / 1000)} s`);
}
console.log(`toolroom: serving the build of ${servedFrom(root, distDir)}`);
for (const line of servingLines({ host, port, token })) console.log(line);
// The server reads the same host and token through its settings (HOST, TOOLROOM_SERVER__TOKEN).
const env = { ...process.env, HOST: host, ...(token ? { TOOLROOM_SERVER__TOKEN: token } : {}) };
const server = spawn(process.execPath, nextStartArgs(root, "-H", host, "-p", String(port)), { stdio: "inherit", env });
stopWithServer(server);
