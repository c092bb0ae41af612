import { describe, expect, it } from "vitest";
import { rateTone, timeTone } from "./diff-tone";
import { ms, pct, signed, when } from "./format";

describe("delta tones", () => {
  it("more failures and slower steps are worse; tiny changes are the same; unknown stays unknown", () => {
    expect(rateTone(0.25)).toBe("worse");
    expect(rateTone(-0.125)).toBe("better");
    expect(rateTone(0.001)).toBe("same");
    expect(rateTone(null)).toBe("unknown");
    expect(timeTone(1.18)).toBe("worse");
    expect(timeTone(0.9)).toBe("better");
    expect(timeTone(1.01)).toBe("same");
    expect(timeTone(null)).toBe("unknown");
  });
});

describe("format", () => {
  it("never shows not-recorded as zero", () => {
    expect(pct(null)).toBe("–");
    expect(pct(0)).toBe("0.0%");
    expect(ms(null)).toBe("–");
    expect(signed(null, "pp")).toBe("–");
  });
  it("signs deltas", () => {
    expect(signed(0.25, "pp")).toBe("+25.0 pp");
    expect(signed(-1.1, "ms")).toBe("−1.1 ms");
    expect(signed(0, "ms")).toBe("±0 ms");
  });
  it("shows path stamps in UTC as recorded", () => {
    expect(when("2026-04-28T14:12:03Z")).toBe("2026-04-28 14:12");
    expect(when(null)).toBe("–");
  });
});
