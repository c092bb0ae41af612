import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliEnv, runToolroom, TOOLROOM_BIN } from "@/lib/testing/cli";

let root: string;
beforeAll(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-cli-pipe-"))));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** `toolroom <args> | head -0`: the reader of stdout is gone before the command writes. */
function intoClosedPipe(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [TOOLROOM_BIN, ...args], { cwd: root, env: cliEnv(root) as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.destroy();
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe("output into a closed pipe", () => {
  it.each([[["settings", "--origin"]], [["tools"]], [["runs", "--root", path.resolve("examples/runs")]]])("toolroom %j exits quietly", async (args) => {
    const r = await intoClosedPipe(args);
    expect(r.stderr).not.toContain("EPIPE");
    expect(r.code).toBe(0);
  });
});

describe("a plugin that prints to stdout", () => {
  // stdout is the command's answer (JSON a script parses); a plugin's prints, at import or while it runs, go to stderr.
  const settings = () => {
    const file = path.join(root, "noisy.yaml");
    fs.writeFileSync(
      file,
      `sourceRoot: ${JSON.stringify(root)}\nplugins:\n  paths: [${JSON.stringify(path.resolve("examples/plugins/fixtures/stdout-writer"))}]\n`,
    );
    return file;
  };

  it("leaves toolroom tools --json parseable", async () => {
    const r = await runToolroom(["--config", settings(), "tools", "--json"], root);
    expect(r.code, r.stderr).toBe(0);
    expect(() => JSON.parse(r.stdout) as unknown).not.toThrow();
    expect(r.stderr).toContain("stdout-writer: imported");
  });

  it("leaves toolroom call's stdout the tool's answer alone, its own prints on stderr", async () => {
    const r = await runToolroom(["--config", settings(), "call", "noisy"], root);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("noisy done\n");
    expect(r.stderr).toContain("stdout-writer: console.log while running");
    expect(r.stderr).toContain("stdout-writer: a raw stdout write");
  });
});

describe("a command line commander refuses", () => {
  it("exits 2, as a bad suite does (1 means cases failed)", async () => {
    const r = await runToolroom(["eval", "x.eval.yaml", "--reporter", "xml"], root);
    expect(r.stderr).toContain("Allowed choices are table, json, junit");
    expect(r.code).toBe(2);
    expect((await runToolroom(["tools", "--no-such-option"], root)).code).toBe(2);
  });
});
