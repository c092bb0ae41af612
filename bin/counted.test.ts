import { describe, expect, it } from "vitest";
import { counted } from "./counted";

describe("counted", () => {
  it("agrees the noun with the count", () => {
    expect(counted(1, "tool")).toBe("1 tool");
    expect(counted(0, "tool")).toBe("0 tools");
    expect(counted(2, "entry", "entries")).toBe("2 entries");
  });
});
