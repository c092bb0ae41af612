// `npm start`: check settings, apply migrations, build when there is no build, serve on loopback.
import { spawnSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
register({ tsconfig: path.join(root, "tsconfig.json") });

const { preflight } = await import("./preflight.ts");
const { host, port } = await preflight();

const step = (args) => {
  const result = spawnSync(process.execPath, args, { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
step(["scripts/migrate.mjs", "deploy"]);
if (!fs.existsSync(".next/BUILD_ID") || process.env.TOOLROOM_REBUILD === "1") {
  console.log("toolroom: building the app (first start only)…");
  step(["node_modules/next/dist/bin/next", "build"]);
}
console.log(`toolroom: serving on http://${host.includes(":") ? `[${host}]` : host}:${port}`);
const server = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-H", host, "-p", String(port)], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
