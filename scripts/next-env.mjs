// Next.js collects anonymous telemetry unless NEXT_TELEMETRY_DISABLED is set. Toolroom is a local
// tool that runs offline, so its scripts (npm start, npm run build, npm run dev, the e2e server)
// turn it off; an empty NEXT_TELEMETRY_DISABLED= turns it back on (Next reads any non-empty value as "off").
// `node scripts/next.mjs <args>` runs next with that environment (`npm run dev`).
import path from "node:path";

/** `env` with Next.js telemetry off unless the person set NEXT_TELEMETRY_DISABLED themselves. */
export function withTelemetryOff(env) {
  return { ...env, NEXT_TELEMETRY_DISABLED: env.NEXT_TELEMETRY_DISABLED ?? "1" };
}

/**
 * The Node flags the server runs with. On Node 22, AsyncLocalStorage (which Next and the AI SDK use
 * on every request) tracks context through promise hooks that run on every promise: a fifth of the
 * server's time while answers stream (bench/RESULTS.md, #29.1). AsyncContextFrame does without
 * them; Node 24 uses it by default and no longer takes the flag.
 */
export function serverNodeFlags(version = process.versions.node) {
  return Number(version.split(".")[0]) < 24 ? ["--experimental-async-context-frame"] : [];
}

/** `node <flags> next start …`: the arguments that start the built app's server. */
export function nextStartArgs(root, ...args) {
  return [...serverNodeFlags(), path.join(root, "node_modules/next/dist/bin/next"), "start", ...args];
}

/** What `npm start` says before it builds: why, and roughly how long (measured on 2 busy cores). */
export function buildingMessage(reason, first) {
  return first
    ? `toolroom: building the app for the first time (${reason}): a type-check and a production build, about 1–2 minutes; later starts reuse the build…`
    : `toolroom: building the app again (${reason}), about 1–2 minutes…`;
}
