import { describe, expect, it } from "vitest";
import { groupOlderRows, keptScrollTop, nextFirstDrawn, nextSliceRows, undrawnCount } from "./older-rows";

const ids = Array.from({ length: 20 }, (_, i) => `m${i}`);

describe("undrawnCount", () => {
  it("counts the messages before the first drawn one", () => {
    expect(undrawnCount(ids, "m0")).toBe(0);
    expect(undrawnCount(ids, "m12")).toBe(12);
  });

  it("draws everything when nothing is drawn yet or the drawn rows are gone", () => {
    expect(undrawnCount(ids, undefined)).toBe(0);
    expect(undrawnCount(ids, "elsewhere")).toBe(0);
  });
});

describe("nextFirstDrawn", () => {
  it("moves the first drawn row up one slice at a time, then stops at the first message", () => {
    const steps: (string | undefined)[] = [];
    let first: string | undefined = "m19";
    while (undrawnCount(ids, first) > 0) {
      first = nextFirstDrawn(ids, first, 8);
      steps.push(first);
    }
    expect(steps).toEqual(["m11", "m3", "m0"]);
    expect(nextFirstDrawn(ids, "m0", 8)).toBe("m0");
  });

  it("keeps a first drawn row the list does not hold (it is drawn in full)", () => {
    expect(nextFirstDrawn(ids, "elsewhere", 8)).toBe("elsewhere");
  });
});

describe("keptScrollTop", () => {
  it("scrolls down by as much as the row moved down", () => {
    expect(keptScrollTop(0, 16, 1_216)).toBe(1_200);
    expect(keptScrollTop(40, 100, 100)).toBe(40);
  });

  it("never goes above the top", () => {
    expect(keptScrollTop(0, 500, 100)).toBe(0);
  });
});

describe("groupOlderRows", () => {
  it("makes each loaded page a group and leaves the rows after the last page alone", () => {
    // m0–m4 came in one page, m5–m9 in another, m10–m19 with the chat.
    const { groups, recentFrom } = groupOlderRows(ids, new Set(["m4", "m9"]), 50);
    expect(groups).toEqual([
      { key: "m4", start: 0, end: 5 },
      { key: "m9", start: 5, end: 10 },
    ]);
    expect(recentFrom).toBe(10);
  });

  it("keeps a page's key while its rows are drawn from the bottom up", () => {
    const ends = new Set(["m9"]);
    const partly = groupOlderRows(ids.slice(7), ends, 50).groups;
    const fully = groupOlderRows(ids.slice(5), ends, 50).groups;
    expect(partly.map((g) => g.key)).toEqual(["m9"]);
    expect(fully.map((g) => g.key)).toEqual(["m9"]);
  });

  it("cuts a long run from the bottom, so its lower groups keep their keys as rows go in above", () => {
    const ends = new Set(["m19"]);
    expect(groupOlderRows(ids, ends, 8).groups).toEqual([
      { key: "m3", start: 0, end: 4 },
      { key: "m11", start: 4, end: 12 },
      { key: "m19", start: 12, end: 20 },
    ]);
    expect(groupOlderRows(ids.slice(10), ends, 8).groups.map((g) => g.key)).toEqual(["m11", "m19"]);
  });

  it("groups nothing before any page has loaded", () => {
    expect(groupOlderRows(ids, new Set(), 50)).toEqual({ groups: [], recentFrom: 0 });
  });
});

describe("nextSliceRows", () => {
  it("halves after a slice over the budget, down to one row", () => {
    expect(nextSliceRows(8, 45, 20)).toBe(4);
    expect(nextSliceRows(1, 45, 20)).toBe(1);
  });

  it("doubles after a quick slice, up to sixteen rows", () => {
    expect(nextSliceRows(4, 6, 20)).toBe(8);
    expect(nextSliceRows(16, 2, 20)).toBe(16);
  });

  it("keeps the size while slices land within the budget", () => {
    expect(nextSliceRows(6, 15, 20)).toBe(6);
  });
});
