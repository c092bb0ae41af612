import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

// The official MCP conformance suite's client scenarios, run against the real `toolroom` CLI
// (lib/testing/conformance-client.mjs is the command the suite drives). No browser: the suite
// serves each scenario itself and the CLI is the client; $BROWSER follows the OAuth redirects.
const SUITE = path.resolve("node_modules/.bin/conformance");
const DRIVER = path.resolve("lib/testing/conformance-client.mjs");
// The auth scenarios run `toolroom mcp login` with $BROWSER following the authorization redirects.
const AUTH = [
  "metadata-default",
  "metadata-var1",
  "metadata-var2",
  "metadata-var3",
  "basic-cimd",
  "scope-from-www-authenticate",
  "scope-from-scopes-supported",
  "scope-omitted-when-undefined",
  "scope-retry-limit",
  "token-endpoint-auth-basic",
  "token-endpoint-auth-post",
  "token-endpoint-auth-none",
  "pre-registration",
  "2025-03-26-oauth-metadata-backcompat",
  "2025-03-26-oauth-endpoint-fallback",
  "scope-step-up",
].map((name) => `auth/${name}`);
const SCENARIOS = ["initialize", "tools_call", "sse-retry", "elicitation-sep1034-client-defaults", ...AUTH];
interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

async function runScenario(out: string, scenario: string): Promise<Check[]> {
  const dir = path.join(out, scenario.replace(/\//g, "_"));
  const child = spawn(SUITE, ["client", "--command", `${process.execPath} ${DRIVER}`, "--scenario", scenario, "-o", dir, "--timeout", "90000"], {
    cwd: out,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout.on("data", (d: Buffer) => (log += d.toString()));
  child.stderr.on("data", (d: Buffer) => (log += d.toString()));
  await new Promise((resolve) => child.on("close", resolve));
  // Results land in <dir>/<scenario>-<time>/checks.json ("auth/x" makes a folder auth/).
  const found = fs.existsSync(dir) ? (fs.readdirSync(dir, { recursive: true }) as string[]).find((f) => path.basename(f) === "checks.json") : undefined;
  if (!found) throw new Error(`the suite wrote no results for ${scenario}:\n${log}`);
  return JSON.parse(fs.readFileSync(path.join(dir, found), "utf8")) as Check[];
}

/** Failures, and warnings (a SHOULD of the spec found unmet: the suite counts the scenario failed). */
const problems = (checks: Check[]) =>
  checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING").map((c) => `${c.id}: ${c.errorMessage ?? c.status}`);

test("the MCP conformance suite's client scenarios pass against the toolroom CLI, the auth ones through toolroom mcp login", async () => {
  test.setTimeout(240_000);
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-conformance-out-"));
  try {
    // Each scenario is its own suite server and CLI processes, mostly waiting on each other: side by side.
    const results = await Promise.all(SCENARIOS.map(async (scenario) => ({ scenario, checks: await runScenario(out, scenario) })));
    for (const { scenario, checks } of results) {
      expect.soft(problems(checks), scenario).toEqual([]);
      expect
        .soft(
          checks.some((c) => c.status === "SUCCESS"),
          `${scenario} has a passing check`,
        )
        .toBe(true);
    }
    expect(results.map((r) => r.scenario)).toHaveLength(20);
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
});
