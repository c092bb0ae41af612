import { describe, expect, it } from "vitest";
import { costText } from "./eval-format";

describe("costText", () => {
  it("keeps 'no pricing' for an unpriced model and says usage was not reported for a priced one", () => {
    expect(costText({ usd: 0.5, partial: false })).toBe("$0.50");
    expect(costText({ usd: 0.5, partial: true })).toBe("≥ $0.50");
    expect(costText({ usd: null, unknown: "no pricing" })).toBe("no pricing");
    expect(costText({ usd: null, unknown: "no usage" })).toBe("cost unknown: usage not reported");
  });
});
