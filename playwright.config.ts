import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

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
}
const port = Number(process.env.E2E_PORT);
const state = process.env.E2E_STATE as string;
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // npm test (scripts/test.mjs) also asks for the JSON report, to count the tests it ran.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  forbidOnly: !!process.env.CI,
  outputDir: "test-results",
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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
  webServer: {
    command: "node scripts/e2e-server.mjs",
    url: `${baseURL}/api/tools`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "pipe",
    env: {
      PORT: String(port),
      E2E_STATE: state,
      DATABASE_URL: `file:${path.join(state, "e2e.db")}`,
      TOOLROOM_CONFIG: path.resolve("e2e/fixtures/toolroom.e2e.yaml"),
      XDG_CONFIG_HOME: path.join(state, "xdg"),
      // Specs generate runs here and open them with ?root=; any other root is refused over HTTP.
      TOOLROOM_RUNS__EXTRAROOTS: `[${JSON.stringify(path.join(state, "runs"))}]`,
      TOOLROOM_LLMS__LOOPBACK: `{ provider: openai-compatible, baseURL: "http://127.0.0.1:${process.env.E2E_LOOPBACK_PORT}/v1", model: loopback-model }`,
    },
  },
});
