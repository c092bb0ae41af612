// The e2e suite's server: the built app on a throwaway database, with fixture settings.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import { nextStartArgs, withTelemetryOff } from "./next-env.mjs";

fs.rmSync(process.env.E2E_STATE, { recursive: true, force: true });
fs.mkdirSync(process.env.E2E_STATE, { recursive: true });
const migrate = spawnSync(process.execPath, ["scripts/migrate.mjs", "deploy"], { stdio: "inherit" });
if (migrate.status !== 0) process.exit(migrate.status ?? 1);
const server = spawn(process.execPath, nextStartArgs(process.cwd(), "-H", "127.0.0.1", "-p", process.env.PORT), {
  stdio: "inherit",
  env: withTelemetryOff(process.env),
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
// The state is the run's own: nothing of it is left in the temp folder after the run.
server.on("exit", (code) => {
  fs.rmSync(process.env.E2E_STATE, { recursive: true, force: true });
  process.exit(code ?? 0);
});
