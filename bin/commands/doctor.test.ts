import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runToolroom } from "@/lib/testing/cli";
import { chromiumCheck } from "./doctor";

describe("toolroom doctor's Chromium check", () => {
  it("is a warning, not a failure, when Chromium is missing: only the e2e tests need it", () => {
    const missing = chromiumCheck(null);
    expect(missing.ok).toBe(false);
    expect(missing).toMatchObject({ warning: expect.stringContaining("only the e2e tests need it") });
    expect(chromiumCheck("/usr/bin/chromium")).toEqual({ ok: true, text: "/usr/bin/chromium" });
  });
});

describe("toolroom doctor on a fresh install", { timeout: 90_000 }, () => {
  it("notes that the database is not created yet instead of failing", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-doctor-fresh-"));
    try {
      const settings = path.join(root, "toolroom.yaml");
      fs.writeFileSync(settings, `sourceRoot: ${JSON.stringify(root)}\n`);
      const run = await runToolroom(["--config", settings, "doctor"], root);
      const file = path.join(root, "data", "toolroom.db");
      expect(run.stdout).toMatch(
        new RegExp(
          `^note {2}database {2}${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} not created yet; npm start, or any toolroom command that uses it \\(tools, call, ask, eval, mcp\\), creates it$`,
          "m",
        ),
      );
      expect(run.stdout).not.toMatch(/^FAIL/m);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(fs.existsSync(file)).toBe(false);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
