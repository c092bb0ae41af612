import { describe, expect, it } from "vitest";
import { chromiumCheck } from "./doctor";

describe("toolroom doctor's Chromium check", () => {
  it("is a warning, not a failure, when Chromium is missing: only the e2e tests need it", () => {
    const missing = chromiumCheck(null);
    expect(missing.ok).toBe(false);
    expect(missing).toMatchObject({ warning: expect.stringContaining("only the e2e tests need it") });
    expect(chromiumCheck("/usr/bin/chromium")).toEqual({ ok: true, text: "/usr/bin/chromium" });
  });
});
