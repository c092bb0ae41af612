import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { processExists } from "@/lib/testing/processes";

const NODE22 = path.join(import.meta.dirname, "node22.mjs");

describe("node22.mjs exec", () => {
  it("passes a SIGTERM sent to it alone on to the command, which then does not outlive it", async () => {
    // The command prints its pid and waits; only the outer process is signalled, as a process manager does.
    const outer = spawn(process.execPath, [NODE22, "exec", "--", process.execPath, "-e", "console.log(process.pid); setInterval(() => {}, 1000)"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const inner = await new Promise<number>((resolve) => outer.stdout.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
    expect(processExists(inner)).toBe(true);
    const exited = new Promise<number | null>((resolve) => outer.on("exit", (code) => resolve(code)));
    outer.kill("SIGTERM");
    // 128 + 15: the status of a command ended by SIGTERM.
    expect(await exited).toBe(143);
    await expect.poll(() => processExists(inner)).toBe(false);
  });
});
