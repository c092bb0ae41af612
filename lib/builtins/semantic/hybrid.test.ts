import { describe, expect, it } from "vitest";
import { maximalMarginalRelevance, nearestRows, reciprocalRankFusion } from "./hybrid";
import { VectorRows } from "./semantic-index";
import { normalize } from "./vector-cache";

const unit = (...v: number[]) => normalize(Float32Array.from(v));

describe("reciprocalRankFusion", () => {
  it("ranks an item found high in both lists above one found first in only one", () => {
    const fused = reciprocalRankFusion([
      ["a", "b", "c"],
      ["b", "d", "a"],
    ]);
    expect(fused.map((f) => f.id)).toEqual(["b", "a", "d", "c"]);
    expect(fused[0]!.score).toBeCloseTo(1 / 61 + 1 / 62);
  });

  it("keeps a single list's order", () => {
    expect(reciprocalRankFusion([["x", "y", "z"]]).map((f) => f.id)).toEqual(["x", "y", "z"]);
  });
});

describe("maximalMarginalRelevance", () => {
  it("skips a near-duplicate of a picked item in favour of a different, slightly weaker one", () => {
    const items = [
      { id: "auth.ts", score: 1, vector: unit(1, 0, 0) },
      { id: "auth-copy.ts", score: 0.99, vector: unit(1, 0.01, 0) },
      { id: "session.ts", score: 0.8, vector: unit(0, 1, 0) },
    ];
    expect(maximalMarginalRelevance(items, 2).map((i) => i.id)).toEqual(["auth.ts", "session.ts"]);
    // With λ = 1 relevance alone decides.
    expect(maximalMarginalRelevance(items, 2, 1).map((i) => i.id)).toEqual(["auth.ts", "auth-copy.ts"]);
  });

  it("treats items without a vector as similar to nothing", () => {
    const items = [
      { id: "a", score: 2, vector: unit(1, 0) },
      { id: "b", score: 1 },
      { id: "c", score: 0.5, vector: unit(1, 0) },
    ];
    expect(maximalMarginalRelevance(items, 3).map((i) => i.id)).toEqual(["a", "b", "c"]);
  });
});

describe("nearestRows", () => {
  it("returns the same top k as a full sort, for many rows", () => {
    const dim = 8;
    const rows = 500;
    const matrix = new Float32Array(rows * dim);
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    for (let r = 0; r < rows; r++) matrix.set(unit(...Array.from({ length: dim }, rand)), r * dim);
    const query = unit(...Array.from({ length: dim }, rand));
    const all = Array.from({ length: rows }, (_, r) => ({ row: r, score: matrix.subarray(r * dim, (r + 1) * dim).reduce((s, v, i) => s + v * query[i]!, 0) }));
    all.sort((a, b) => b.score - a.score);
    expect(nearestRows(matrix, dim, rows, query, 10).map((n) => n.row)).toEqual(all.slice(0, 10).map((n) => n.row));
  });
});

describe("VectorRows", () => {
  it("stays correct through removals, re-adds and compaction", () => {
    const rows = new VectorRows();
    const vectorOf = (i: number) => unit(Math.cos(i / 500), Math.sin(i / 500), (i % 7) / 10);
    for (let i = 0; i < 3000; i++) rows.add(`k${i}`, vectorOf(i));
    // 2,500 removals compact the rows (dead rows outnumber live ones) on the way.
    for (let i = 0; i < 2500; i++) rows.remove(`k${i}`);
    rows.add("k2999", vectorOf(10));
    expect(rows.size).toBe(500);
    const query = vectorOf(2700);
    const expected = Array.from({ length: 499 }, (_, j) => 2500 + j)
      .map((i) => ({ key: `k${i}`, score: vectorOf(i).reduce((s, v, d) => s + v * query[d]!, 0) }))
      .concat([{ key: "k2999", score: vectorOf(10).reduce((s, v, d) => s + v * query[d]!, 0) }])
      .sort((a, b) => b.score - a.score);
    expect(rows.nearest(query, 5).map((n) => n.key)).toEqual(expected.slice(0, 5).map((e) => e.key));
    expect(rows.nearest(vectorOf(10), 1)[0]?.key).toBe("k2999");
  });
});
