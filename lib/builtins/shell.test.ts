import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testContext } from "@/lib/testing/context";
import { notAdmittedWhy } from "@/lib/tools/confirm";
import type { ToolContext } from "@/lib/tools/types";
import { runShell, runTerminalCommand } from "./shell";

let dir: string;
let ctx: ToolContext;
const SETTINGS = { allowedCommands: ["ls", "cat", "grep", "wc", "head", "tail", "find", "git", "echo"], timeoutSeconds: 10 };

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-shell-"));
  fs.writeFileSync(path.join(dir, "hello.txt"), "hello\nworld\n");
  ctx = testContext({ sourceRoot: dir, settings: SETTINGS });
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const run = async (command: string, c: ToolContext = ctx) => String(await runTerminalCommand.execute({ command }, c));

/** Each would create marker file m<i> in the temp dir if it ran. `M` stands for that path. */
const HOSTILE: string[] = [
  "ls; touch M",
  "ls && touch M",
  "ls || touch M",
  "ls & touch M",
  "touch M",
  "ls | touch M",
  "ls | grep x | touch M",
  "ls $(touch M)",
  "ls `touch M`",
  "echo x > M",
  "echo x >> M",
  "ls 2>M",
  "cat <(touch M)",
  "ls\ntouch M",
  "ls\rtouch M",
  "ls |touch M",
  "ls | xargs touch M",
  "ls | sh -c 'touch M'",
  "ls | /usr/bin/touch M",
  "/bin/sh -c 'touch M'",
  '"touch" M',
  "\\touch M",
  "t\\ouch M",
  "X=1 touch M",
  "env touch M",
  "find . -exec touch M +",
  "find . -ex${UNSET}ec touch M +",
  "find . '-exec' touch M +",
  "find . -fprint M",
  "git -c core.pager='touch M' log",
  "git config alias.x '!touch M'",
  "ls ; rm -rf M",
  "curl -o M http://127.0.0.1/",
  "ls | tee M",
  "ls\u0000; touch M",
];

describe("run_terminal_command admission", () => {
  it("has a corpus of at least 25 hostile commands", () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(25);
  });

  it("denies every hostile command without running it", async () => {
    const markers: string[] = [];
    for (const [i, template] of HOSTILE.entries()) {
      const marker = path.join(dir, `m${i}`);
      markers.push(marker);
      const out = await run(template.replaceAll("M", marker));
      expect(out, template).toMatch(/^DENIED: /);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(markers.filter((m) => fs.existsSync(m))).toEqual([]);
    // Control: the same kind of command, run without admission, does leave its marker.
    const control = path.join(dir, "control");
    await runShell(`ls; touch ${control}`, dir, 5000);
    expect(fs.existsSync(control)).toBe(true);
    fs.rmSync(control);
  });

  it("names the reason", async () => {
    expect(await run("ls; ls")).toBe("DENIED: shell syntax ';' is not allowed; run one command or a '|' pipeline");
    expect(await run("ls | rm x")).toMatch(/^DENIED: "rm" is not an allowed command \(pipeline stage 2\); allowed: cat, echo/);
    expect(await run("cat x | grep 'rm -rf'")).toBe('DENIED: the command contains the blocked text "rm -rf"');
    expect(await run("")).toBe("DENIED: empty command");
  });

  it("consults the context's command policies too", async () => {
    const strict = testContext({
      sourceRoot: dir,
      settings: SETTINGS,
      commandPolicies: [{ name: "no-cat", check: (c) => (c.includes("cat") ? "no cats" : null) }],
    });
    expect(await run("cat hello.txt", strict)).toBe("DENIED: no cats");
  });
});

describe("run_terminal_command execution", () => {
  it("runs an allowed command in the source root and reports the exit code first", async () => {
    expect(await run("ls")).toBe("Exit code: 0\nhello.txt");
    expect(await run("cat hello.txt | grep -c o")).toBe("Exit code: 0\n2");
    expect(await run("grep 'a|b' hello.txt")).toBe("Exit code: 1");
    expect(await run("ls no-such-file")).toMatch(/^Exit code: [12]\n.*no-such-file/);
  });

  it("caps the output at 4000 characters", async () => {
    fs.writeFileSync(path.join(dir, "big.txt"), "y".repeat(10_000));
    const out = await run("cat big.txt");
    expect(out).toBe(`Exit code: 0\n${"y".repeat(4000)}\n... (output truncated, 10000 total chars)`);
    fs.rmSync(path.join(dir, "big.txt"));
  });

  it("kills a command that runs past the timeout", async () => {
    const slow = testContext({ sourceRoot: dir, settings: { allowedCommands: ["sleep"], timeoutSeconds: 0.5 } });
    // An odd duration names this test's process: once the call has answered it is gone, not left to run out.
    expect(await run("sleep 37.25", slow)).toBe("Exit code: 124\n(killed: timed out after 0.5 s)");
    expect(spawnSync("pgrep", ["-f", "sleep 37.25"]).status, "the timed-out command is still running").toBe(1);
  });

  it("stops when the call is aborted", async () => {
    const controller = new AbortController();
    const c = testContext({ sourceRoot: dir, signal: controller.signal, settings: { allowedCommands: ["sleep"] } });
    setTimeout(() => controller.abort(), 200);
    expect(await run("sleep 20", c)).toBe("Exit code: 130\n(killed: cancelled)");
  });
});

/** Alive means running: a killed child whose new parent has not reaped it yet is a zombie ("Z"). */
function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

async function waitFor<T>(probe: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("runShell when its server dies", () => {
  it("takes the whole command group down with a server killed by SIGKILL", async () => {
    const pidFile = path.join(dir, "pipeline.pids");
    // Two processes of the command's group, as a pipeline would start.
    const command = `sleep 31 & a=$!; sleep 32 & echo $a $! > ${pidFile}.tmp; mv ${pidFile}.tmp ${pidFile}; wait`;
    const host = spawn(process.execPath, [path.resolve("lib/builtins/__fixtures__/shell-host/host.mjs"), command, dir], { stdio: "ignore" });
    const exited = new Promise((resolve) => host.on("exit", resolve));
    try {
      const pids = await waitFor(
        () => (fs.existsSync(pidFile) ? fs.readFileSync(pidFile, "utf8").trim().split(/\s+/).map(Number) : undefined),
        "the command to start",
      );
      expect(pids).toHaveLength(2);
      expect(pids.every(isRunning)).toBe(true);
      host.kill("SIGKILL");
      await exited;
      await waitFor(() => (pids.some(isRunning) ? undefined : true), "the command's processes to die");
    } finally {
      host.kill("SIGKILL");
      fs.rmSync(pidFile, { force: true });
    }
  });
});

describe("run_terminal_command confirmation", () => {
  it("always asks a human and says why it did not run", async () => {
    const confirm = runTerminalCommand.confirm!;
    expect(await confirm.evaluate({ command: "ls" }, ctx)).toBe(true);
    expect(runTerminalCommand.readonly).toBe(false);
    expect(confirm.notAdmitted({ command: "ls" }, notAdmittedWhy({ kind: "denied", reason: "not now" }))).toBe(
      'Not run: the user denied "ls" (reason: not now)',
    );
    expect(confirm.notAdmitted({ command: "ls" }, notAdmittedWhy({ kind: "denied" }))).toBe('Not run: the user denied "ls"');
    expect(confirm.notAdmitted({ command: "ls" }, notAdmittedWhy({ kind: "timed-out" }))).toMatch(/timed out/);
    expect(confirm.notAdmitted({ command: "ls" }, notAdmittedWhy({ kind: "unsupervised" }))).toMatch(/unsupervised/);
  });
});
