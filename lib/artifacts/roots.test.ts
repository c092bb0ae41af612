import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isAllowedRoot } from "./roots";

const base = fs.mkdtempSync(path.join(os.tmpdir(), "roots-"));
const allowed = path.join(base, "runs");
const outside = path.join(base, "elsewhere");
fs.mkdirSync(path.join(allowed, "inner"), { recursive: true });
fs.mkdirSync(outside);
fs.symlinkSync(outside, path.join(allowed, "link"));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe("isAllowedRoot", () => {
  it("allows an allowed root and folders inside it", () => {
    expect(isAllowedRoot(allowed, [allowed])).toBe(true);
    expect(isAllowedRoot(path.join(allowed, "inner"), [allowed])).toBe(true);
    expect(isAllowedRoot(path.join(allowed, "not-yet"), [allowed])).toBe(true);
  });

  it("refuses the disk root, siblings, a prefix look-alike and symlinks that lead out", () => {
    expect(isAllowedRoot("/", [allowed])).toBe(false);
    expect(isAllowedRoot(outside, [allowed])).toBe(false);
    expect(isAllowedRoot(`${allowed}-x`, [allowed])).toBe(false);
    expect(isAllowedRoot(path.join(allowed, ".."), [allowed])).toBe(false);
    expect(isAllowedRoot(path.join(allowed, "link"), [allowed])).toBe(false);
    expect(isAllowedRoot(outside, [allowed, outside])).toBe(true);
  });
});
