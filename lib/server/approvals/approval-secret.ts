import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Per-install state lives outside the repository: $XDG_STATE_HOME/toolroom (default ~/.local/state). */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.XDG_STATE_HOME ?? path.join(os.homedir(), ".local", "state"), "toolroom");
}

let cached: string | undefined;

/** The HMAC secret that signs approval requests: created once, readable by the owner only. */
export function approvalSecret(): string {
  if (cached) return cached;
  const file = path.join(stateDir(), "approval-secret");
  try {
    cached = fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const secret = crypto.randomBytes(32).toString("hex");
    try {
      fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
      cached = secret;
    } catch {
      // another process created it first: use theirs
      cached = fs.readFileSync(file, "utf8").trim();
    }
  }
  return cached;
}
