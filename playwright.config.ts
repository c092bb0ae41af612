import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { chromiumPath } from "./lib/server/runtime/chromium";

// Workers re-read this file: pick the port and the throwaway state once, in the main process.
const freePort = () =>
  execFileSync(process.execPath, ["-e", "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"])
    .toString()
    .trim();
if (!process.env.E2E_PORT) {
  process.env.E2E_PORT = freePort();
  // Where a spec's loopback OpenAI-compatible server (lib/testing/openai-server.ts) listens: settings llms.loopback.
  process.env.E2E_LOOPBACK_PORT = freePort();
  process.env.E2E_STATE = path.join(os.tmpdir(), `toolroom-e2e-${process.pid}`);
  process.env.E2E_SIDE_PORT = freePort();
  process.env.E2E_SIDE_LOOPBACK_PORT = freePort();
}
const port = Number(process.env.E2E_PORT);
const state = process.env.E2E_STATE as string;
const baseURL = `http://127.0.0.1:${port}`;
const sidePort = Number(process.env.E2E_SIDE_PORT);

/** One shared suite server: the built app on its own throwaway database, with the fixture settings. */
function suiteServer(serverPort: number, serverState: string, loopbackPort: string) {
  return {
    command: "node scripts/e2e-server.mjs",
    url: `http://127.0.0.1:${serverPort}/api/tools`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "pipe" as const,
    env: {
      PORT: String(serverPort),
      E2E_STATE: serverState,
      DATABASE_URL: `file:${path.join(serverState, "e2e.db")}`,
      TOOLROOM_CONFIG: path.resolve("e2e/fixtures/toolroom.e2e.yaml"),
      XDG_CONFIG_HOME: path.join(serverState, "xdg"),
      // Specs generate runs here and open them with ?root=; any other root is refused over HTTP.
      TOOLROOM_RUNS__EXTRAROOTS: `[${JSON.stringify(path.join(serverState, "runs"))}]`,
      TOOLROOM_LLMS__LOOPBACK: `{ provider: openai-compatible, baseURL: "http://127.0.0.1:${loopbackPort}/v1", model: loopback-model }`,
    },
  };
}

// Three lanes, two specs running at a time (the machine has two cores), because most of an e2e test's time is spent
// waiting (on a server, a stream, the browser), not computing: the specs that reach into the main
// server's state folder, database or loopback port (E2E_STATE, E2E_LOOPBACK_PORT); the other
// shared-server specs, on a second server of their own; and the specs that start servers themselves.
const MAIN = ["compare", "edge", "errors", "long-chat", "runs", "runs-load", "security", "streaming-load", "text-protocols"];
const OWN = [
  "collections",
  "crash",
  "evals",
  "evals-grid",
  "evals-save-case",
  "evals-trust",
  "hardening",
  "mcp-client-conformance",
  "mcp-conformance",
  "mcp-oauth",
  "mcp-stdio-conformance",
  "newcomer",
  "packed",
  "plugin-startup",
  "reload",
  "team",
];
const specs = (names: string[]) => names.map((name) => new RegExp(`/${name}\\.spec\\.ts$`));

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // npm test (scripts/test.mjs) also asks for the JSON report, to count the tests it ran.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  forbidOnly: !!process.env.CI,
  outputDir: "test-results",
  use: {
    baseURL,
    // Recording a trace (screencast frames, DOM snapshots) costs CPU on every test, passed or not;
    // CI retries a failed test once and records that try. Locally: --trace on.
    trace: "on-first-retry",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromiumPath() ?? "/usr/bin/chromium-headless-shell",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-dev-shm-usage",
        "--disable-quic",
      ],
    },
  },
  projects: [
    { name: "main", testMatch: specs(MAIN), workers: 1 },
    { name: "side", testIgnore: specs([...MAIN, ...OWN]), workers: 1, use: { baseURL: `http://127.0.0.1:${sidePort}` } },
    // Each of these starts its own servers on free ports with state of its own: two may run at once,
    // so this lane takes the second worker whenever one of the others has finished.
    { name: "own-server", testMatch: specs(OWN), workers: 2 },
  ],
  webServer: [
    suiteServer(port, state, process.env.E2E_LOOPBACK_PORT as string),
    suiteServer(sidePort, `${state}-side`, process.env.E2E_SIDE_LOOPBACK_PORT as string),
  ],
});
