// The official MCP conformance suite (server side, --suite all) against `toolroom mcp`, the stdio
// server, with examples/plugins/mcp-conformance-fixtures installed by path. The suite drives servers
// by URL only: lib/testing/stdio-bridge.ts is a loopback streamable-HTTP endpoint that gives each
// session a `toolroom mcp` of its own (the real CLI entry) and passes every message through as it
// is. Every scenario passes but tools-call-sampling (left out by design) and dns-rebinding-protection
// (HTTP only): e2e/fixtures/mcp-stdio-conformance-expected-failures.yaml says why.
import { expect, test } from "@playwright/test";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";
import { runServerSuite } from "./pages/conformance-suite";
import { descendants, ownState, type OwnState } from "./pages/next-server";

test.describe.configure({ timeout: 240_000 });

/** Bounds, so a hang fails with the bridge's output instead of running into the test's timeout. */
const LISTEN_MS = 30_000;
const SUITE_MS = 150_000;
const STOP_GRACE_MS = 10_000;

let state: OwnState;
let bridge: ChildProcessWithoutNullStreams;
let url: string;
/** The bridge's stderr, which carries each `toolroom mcp` child's stderr too. */
let bridgeLog = "";

test.beforeAll(async () => {
  state = ownState(
    "mcp-stdio-conformance",
    (dir) => `plugins: { paths: [${JSON.stringify(path.resolve("examples/plugins/mcp-conformance-fixtures"))}] }\nsourceRoot: ${JSON.stringify(dir)}\n`,
  );
  bridge = spawn(process.execPath, ["--import", "tsx", "lib/testing/stdio-bridge.ts", state.config, state.dir], { env: { ...process.env, ...state.env } });
  bridge.stderr.on("data", (chunk: Buffer) => (bridgeLog += chunk.toString()));
  url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`the stdio bridge did not listen within ${LISTEN_MS} ms:\n${bridgeLog}`)), LISTEN_MS);
    bridge.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the stdio bridge exited (${code}) before it listened:\n${bridgeLog}`));
    });
    bridge.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes("\n")) return;
      clearTimeout(timer);
      resolve((JSON.parse(out.split("\n")[0]!) as { url: string }).url);
    });
  });
});

test.afterAll(async () => {
  if (bridge && bridge.exitCode === null && bridge.signalCode === null) {
    const exited = new Promise((resolve) => bridge.once("exit", resolve));
    bridge.kill("SIGTERM");
    const grace = setTimeout(() => bridge.kill("SIGKILL"), STOP_GRACE_MS);
    await exited;
    clearTimeout(grace);
  }
  state?.remove();
});

const children = () => descendants(bridge.pid!).filter((p) => p.argv.some((arg) => arg.endsWith(path.join("bin", "toolroom.mjs"))));

test("the MCP conformance suite passes against toolroom mcp over stdio, apart from tools-call-sampling and the HTTP-only DNS rebinding check", async () => {
  const suite = await runServerSuite(url, "e2e/fixtures/mcp-stdio-conformance-expected-failures.yaml", test.info().outputPath("conformance"), SUITE_MS);
  const context = `\n--- the suite ---\n${suite.stdout}\n--- the bridge and its toolroom mcp children (stderr) ---\n${bridgeLog}`;
  expect(suite.timedOut, `the suite did not end within ${SUITE_MS / 1000} s (its output shows how far it got)${context}`).toBe(false);
  expect(suite.scenarios.length, context).toBeGreaterThanOrEqual(32);
  expect(
    suite.scenarios
      .filter((s) => s.failed > 0)
      .map((s) => s.name)
      .sort(),
    context,
  ).toEqual(["dns-rebinding-protection", "tools-call-sampling"]);
  expect(suite.stdout, context).toContain("Baseline check passed");
  expect(suite.code, context).toBe(0);
  // Nothing went astray: no line of a child's stdout that is not JSON-RPC (its logs belong on
  // stderr), no message the bridge could not deliver.
  expect(bridgeLog.match(/^(stdio-bridge|mcp-http-front): .*$/gm) ?? [], context).toEqual([]);
  // What answered was stdio: a `toolroom mcp` for each scenario's session, at least.
  expect(bridgeLog.match(/^\[toolroom mcp \d+\] toolroom mcp: serving \d+ tools on stdio$/gm)?.length ?? 0, context).toBeGreaterThanOrEqual(
    suite.scenarios.length,
  );
  // Each session was its own child, and each ends once the suite's client has left its session
  // (the SDK client never sends DELETE): nothing is left running.
  await expect.poll(() => children().map((p) => p.pid), { message: `toolroom mcp children still running${context}`, timeout: 30_000 }).toEqual([]);
});
