// The official MCP conformance suite's server side (`--suite all`), as the conformance specs run it
// against a URL: its exit code, its output, and each scenario's line read from that output.
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);
const SUITE = "node_modules/@modelcontextprotocol/conformance/dist/index.js";

export interface SuiteRun {
  /** 0, or non-zero: a failure not in the expected-failures file, or one listed there that passed (a stale entry). */
  code: number | null;
  stdout: string;
  scenarios: { name: string; failed: number }[];
  /** Set when the suite did not end within the time it was given. */
  timedOut: boolean;
}

/** Runs every server scenario against `url`; a suite still running after `timeoutMs` is killed and says so. */
export async function runServerSuite(url: string, expectedFailures: string, outDir: string, timeoutMs: number): Promise<SuiteRun> {
  const { stdout, code, timedOut } = await run(
    process.execPath,
    [SUITE, "server", "--url", url, "--suite", "all", "--expected-failures", expectedFailures, "-o", outDir],
    { maxBuffer: 32 * 1024 * 1024, timeout: timeoutMs, killSignal: "SIGKILL" },
  ).then(
    (r) => ({ stdout: r.stdout, code: 0, timedOut: false }),
    (error: { stdout: string; code: number | null; killed?: boolean }) => ({ stdout: error.stdout, code: error.code, timedOut: error.killed === true }),
  );
  const scenarios = [...stdout.matchAll(/^[✓✗] (\S+): (\d+) passed, (\d+) failed/gm)].map(([, name, , failed]) => ({ name: name!, failed: Number(failed) }));
  return { code, stdout, scenarios, timedOut };
}
