// `node scripts/next.mjs <args>`: runs `next <args>` with Next.js telemetry off (scripts/next-env.mjs), as `npm run dev` does.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { withTelemetryOff } from "./next-env.mjs";

const next = path.join(import.meta.dirname, "../node_modules/next/dist/bin/next");
const result = spawnSync(process.execPath, [next, ...process.argv.slice(2)], { stdio: "inherit", env: withTelemetryOff(process.env) });
process.exit(result.status ?? 1);
