import { describe, expect, it } from "vitest";
import { CliExit } from "../context";
import { minPassOf } from "./eval-report";

const exitOf = (f: () => unknown): { code: number; message: string } | undefined => {
  try {
    f();
  } catch (error) {
    if (error instanceof CliExit) return { code: error.code, message: error.message };
    throw error;
  }
  return undefined;
};

describe("toolroom eval's exit status", () => {
  it("takes --min-pass as a pass rate from 0 to 1 and refuses anything else with exit 2", () => {
    expect(minPassOf(undefined)).toBeUndefined();
    expect([minPassOf("0"), minPassOf("0.9"), minPassOf(".5"), minPassOf("1"), minPassOf("1.0")]).toEqual([0, 0.9, 0.5, 1, 1]);
    for (const bad of ["90", "-1", "", " ", "1.5", "abc", "90%", "0x1"])
      expect(exitOf(() => minPassOf(bad))).toEqual({
        code: 2,
        message: `toolroom: --min-pass must be a pass rate from 0 to 1, such as 0.9 (got ${JSON.stringify(bad)}).`,
      });
  });
});
