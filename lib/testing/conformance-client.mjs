#!/usr/bin/env node
// The client command the MCP conformance suite runs (`conformance client --command "node this"`):
// it appends the scenario server's URL and sets MCP_CONFORMANCE_SCENARIO. This drives the real
// `toolroom` CLI against that server, as a person would: `mcp login` for the auth scenarios (with
// $BROWSER following the authorization redirects), then `tools` and a `call --yes` of each tool.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const TOOLROOM = path.resolve(import.meta.dirname, "../../bin/toolroom.mjs");
const BROWSER = path.resolve(import.meta.dirname, "conformance-browser.mjs");
const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-conformance-"));
const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
// Pre-registered clients: the suite hands the credentials over in the context. The client ID
// metadata document URL is the one the suite expects (it is used where the server supports it).
const oauth = {
  clientMetadataUrl: "https://conformance-test.local/client-metadata.json",
  ...(context.client_id ? { clientId: context.client_id } : {}),
  ...(context.client_secret ? { clientSecret: context.client_secret } : {}),
};
fs.writeFileSync(path.join(root, "toolroom.json"), JSON.stringify({ mcpServers: { conf: { url, confirm: "never", oauth } } }));
const env = { ...process.env, XDG_CONFIG_HOME: path.join(root, "xdg-config"), XDG_STATE_HOME: path.join(root, "xdg-state"), BROWSER: `node ${BROWSER}` };
for (const name of Object.keys(env)) if (name.startsWith("TOOLROOM_")) delete env[name];
env.DATABASE_URL = `file:${path.join(root, "toolroom.db")}`;

function toolroom(...args) {
  const run = spawnSync(process.execPath, [TOOLROOM, "--config", path.join(root, "toolroom.json"), ...args], {
    cwd: root,
    env,
    encoding: "utf8",
    timeout: 60_000,
  });
  process.stderr.write(`$ toolroom ${args.join(" ")} (exit ${run.status})\n${run.stderr}`);
  process.stdout.write(run.stdout);
  return run;
}

/** Arguments of the right types for a tool's schema (the scenarios' tools check types, not values). */
function sampleArguments(schema) {
  const sample = { number: 1, integer: 1, boolean: true, string: "x", array: [], object: {} };
  return Object.fromEntries(Object.entries(schema?.properties ?? {}).map(([name, p]) => [name, p.default ?? sample[p.type] ?? "x"]));
}

try {
  // Tokens are stored in the database, as on a person's machine after `npm start`.
  spawnSync(process.execPath, [path.resolve(import.meta.dirname, "../../scripts/migrate.mjs"), "deploy"], { env, stdio: "ignore" });
  if (scenario.startsWith("auth/")) {
    const login = toolroom("mcp", "login", "conf");
    if (login.status !== 0) process.exit(1);
  }
  const listed = toolroom("tools", "--json");
  const tools = Object.entries(JSON.parse(listed.stdout || "{}")).filter(([, t]) => t.source_package === "mcp:conf");
  for (const [name, tool] of tools) toolroom("call", name, "--yes", "--input", JSON.stringify(sampleArguments(tool.input_schema)));
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
