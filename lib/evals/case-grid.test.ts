import { describe, expect, it } from "vitest";
import { caseGrid, passAtK, passHatK, type GridTrial } from "./case-grid";
import { cellCost, estimateCost, sumCosts } from "./cost";
import { configuredModes, recommend } from "./recommend";

const trial = (c: string, cell: string, verdict: string, tokens: [number | null, number | null] = [null, null]): GridTrial => {
  const [model, mode, protocol] = cell.split(" · ");
  return { case: c, cell, model: model!, mode: mode!, protocol: protocol ?? null, verdict, input_tokens: tokens[0], output_tokens: tokens[1] };
};

describe("pass@k and pass^k", () => {
  it("pass@k is the chance one of k draws passes; pass^k that all k do", () => {
    expect(passAtK(3, 0, 3)).toBe(0);
    expect(passAtK(3, 1, 3)).toBe(1);
    expect(passAtK(4, 1, 1)).toBeCloseTo(0.25);
    // 1 − C(2,2)/C(4,2) = 1 − 1/6
    expect(passAtK(4, 2, 2)).toBeCloseTo(5 / 6);
    expect(passHatK(3, 3, 3)).toBe(1);
    expect(passHatK(3, 2, 3)).toBe(0);
    // C(2,2)/C(4,2)
    expect(passHatK(4, 2, 2)).toBeCloseTo(1 / 6);
    expect(passHatK(4, 3, 1)).toBeCloseTo(0.75);
  });
});

describe("caseGrid", () => {
  const trials = [
    trial("a", "m · native", "pass", [100, 10]),
    trial("a", "m · native", "pass", [100, 10]),
    trial("b", "m · native", "pass", [100, 10]),
    trial("b", "m · native", "fail", [100, 10]),
    trial("a", "m · text · json", "fail"),
    trial("a", "m · text · json", "fail"),
    trial("b", "m · text · json", "pass", [50, 5]),
    trial("b", "m · text · json", "pass"),
  ];

  it("counts passes over trials per case × cell and marks a case flaky where it both passed and failed", () => {
    const grid = caseGrid(trials);
    expect(grid.cases).toEqual(["a", "b"]);
    expect(grid.columns.map((c) => c.name)).toEqual(["m · native", "m · text · json"]);
    expect(grid.entries[0]).toEqual([
      { passed: 2, trials: 2, state: "pass" },
      { passed: 0, trials: 2, state: "fail" },
    ]);
    expect(grid.entries[1]![0]).toEqual({ passed: 1, trials: 2, state: "flaky" });
    expect(grid.flakyCases).toEqual(["b"]);
    const [native, text] = grid.columns;
    expect(native).toMatchObject({ trials: 4, passed: 3, passRate: 0.75, k: 2, passAtK: 1, passHatK: 0.5, flaky: 1 });
    expect(text).toMatchObject({ passRate: 0.5, passAtK: 0.5, passHatK: 0.5, flaky: 0 });
  });

  it("totals tokens only over trials that reported usage", () => {
    const [native, text] = caseGrid(trials).columns;
    expect(native!.tokens).toEqual({ reported: 4, trials: 4, input: 400, output: 40 });
    expect(text!.tokens).toEqual({ reported: 1, trials: 4, input: 50, output: 5 });
    expect(caseGrid([trial("a", "m · native", "pass")]).columns[0]!.tokens.reported).toBe(0);
  });

  it("leaves a case that did not run in a cell empty (a partial run), and drops a cell with no trial", () => {
    const grid = caseGrid([trial("a", "m · native", "pass")], { cases: ["a", "b"], cells: ["m · native", "m · text"] });
    expect(grid.columns.map((c) => c.name)).toEqual(["m · native"]);
    expect(grid.entries).toEqual([[{ passed: 1, trials: 1, state: "pass" }], [null]]);
  });
});

describe("recommend", () => {
  it("picks the best pass rate per model, ties to fewer tokens, with the line to paste", () => {
    const grid = caseGrid([
      trial("a", "m · native", "pass", [300, 30]),
      trial("a", "m · text · json", "pass", [200, 20]),
      trial("a", "m · text · hermes", "fail", [10, 1]),
      trial("a", "other · native", "fail"),
      trial("a", "other · text · xml", "pass"),
    ]);
    const [m, other] = recommend(grid.columns);
    expect(m).toMatchObject({ model: "m", mode: "text", protocol: "json", passRate: 1, tokensPerTrial: 220, of: 3 });
    expect(m!.line).toBe("llms.m: { toolMode: text, textProtocol: json }");
    expect(other!.line).toBe("llms.other: { toolMode: text, textProtocol: xml }");
    expect(recommend(caseGrid([trial("a", "gpt 4 · native", "pass")]).columns)[0]!.line).toBe('llms."gpt 4": { toolMode: native }');
  });

  it("prefers a cell whose tokens are known over an equal one without", () => {
    const grid = caseGrid([trial("a", "m · text · json", "pass"), trial("a", "m · native", "pass", [500, 50])]);
    expect(recommend(grid.columns)[0]!.mode).toBe("native");
  });

  describe("ties", () => {
    const tied = caseGrid([
      trial("a", "m · native", "pass", [100, 10]),
      trial("a", "m · text · json", "pass", [100, 10]),
      trial("a", "m · text · hermes", "pass", [100, 10]),
      trial("a", "m · text · xml", "fail", [10, 1]),
    ]).columns;

    it("says so when pass rate and tokens tie exactly, and without a configured mode shows the first in the matrix", () => {
      expect(recommend(tied)[0]).toMatchObject({
        cell: "m · native",
        configured: false,
        tiedWith: ["m · text · json", "m · text · hermes"],
        tieBreak: "matrix order",
      });
    });

    it("keeps the model's configured mode and protocol among tied cells", () => {
      const [r] = recommend(tied, { m: { toolMode: "text", textProtocol: "hermes" } });
      expect(r).toMatchObject({ cell: "m · text · hermes", configured: true, tiedWith: ["m · native", "m · text · json"], tieBreak: "configured" });
      expect(r!.line).toBe("llms.m: { toolMode: text, textProtocol: hermes }");
      expect(recommend(tied, { m: { toolMode: "native", textProtocol: "hermes" } })[0]).toMatchObject({ cell: "m · native", tieBreak: "configured" });
      // A configured protocol the sweep did not tie on changes nothing; another model's configuration neither.
      expect(recommend(tied, { m: { toolMode: "text", textProtocol: "xml" } })[0]).toMatchObject({ cell: "m · native", tieBreak: "matrix order" });
      expect(recommend(tied, { other: { toolMode: "text", textProtocol: "json" } })[0]!.cell).toBe("m · native");
    });

    it("under toolMode auto counts native and the configured protocol alike: still a tie, in matrix order", () => {
      expect(recommend(tied, { m: { toolMode: "auto", textProtocol: "json" } })[0]).toMatchObject({
        cell: "m · native",
        configured: true,
        tiedWith: ["m · text · json", "m · text · hermes"],
        tieBreak: "matrix order",
      });
    });

    it("lets pass rate, then tokens, decide before the configured mode: no tie then", () => {
      const cheaper = caseGrid([trial("a", "m · native", "pass", [90, 10]), trial("a", "m · text · json", "pass", [100, 10])]).columns;
      expect(recommend(cheaper, { m: { toolMode: "text", textProtocol: "json" } })[0]).toMatchObject({
        cell: "m · native",
        configured: false,
        tiedWith: [],
        tieBreak: null,
      });
      const better = caseGrid([trial("a", "m · native", "fail", [1, 1]), trial("a", "m · text · json", "pass", [100, 10])]).columns;
      expect(recommend(better, { m: { toolMode: "native", textProtocol: "json" } })[0]).toMatchObject({ cell: "m · text · json", tiedWith: [] });
    });

    it("counts two cells without reported tokens as tied", () => {
      const unknown = caseGrid([trial("a", "m · native", "pass"), trial("a", "m · text · json", "pass")]).columns;
      expect(recommend(unknown, { m: { toolMode: "text", textProtocol: "json" } })[0]).toMatchObject({
        cell: "m · text · json",
        tokensPerTrial: null,
        tiedWith: ["m · native"],
        tieBreak: "configured",
      });
    });

    it("reads the configured modes env.json recorded, and nothing from a run that recorded none", () => {
      expect(
        configuredModes({
          m: { provider: "offline", modelId: "offline", toolMode: "text", textProtocol: "hermes" },
          old: { provider: "openai", modelId: "gpt-4o" },
        }),
      ).toEqual({ m: { toolMode: "text", textProtocol: "hermes" } });
      expect(configuredModes(undefined)).toEqual({});
      expect(configuredModes({ m: { toolMode: "sometimes", textProtocol: "json" } })).toEqual({});
    });
  });
});

describe("cost", () => {
  const pricing = { inputPerMTok: 3, outputPerMTok: 15 };
  it("prices reported tokens, says so when some trials reported none, and says why a cost is unknown", () => {
    expect(cellCost({ reported: 2, trials: 2, input: 1_000_000, output: 100_000 }, pricing)).toEqual({ usd: 4.5, partial: false });
    expect(cellCost({ reported: 1, trials: 2, input: 1000, output: 0 }, pricing)).toEqual({ usd: 0.003, partial: true });
    // A priced model whose provider sent no usage is not "unpriced".
    expect(cellCost({ reported: 0, trials: 2, input: 0, output: 0 }, pricing)).toEqual({ usd: null, unknown: "no usage" });
    expect(cellCost({ reported: 2, trials: 2, input: 1, output: 1 }, undefined)).toEqual({ usd: null, unknown: "no pricing" });
    expect(
      sumCosts([
        { usd: 1, partial: false },
        { usd: null, unknown: "no pricing" },
      ]),
    ).toEqual({ usd: 1, partial: true });
    expect(sumCosts([{ usd: null, unknown: "no pricing" }])).toEqual({ usd: null, unknown: "no pricing" });
    expect(
      sumCosts([
        { usd: null, unknown: "no pricing" },
        { usd: null, unknown: "no usage" },
      ]),
    ).toEqual({ usd: null, unknown: "no usage" });
  });

  it("estimates a run before it starts from its trials per model and the per-trial figure", () => {
    const est = estimateCost(
      new Map([
        ["gpt", 10],
        ["offline", 4],
      ]),
      (m) => (m === "gpt" ? pricing : undefined),
      { input: 1000, output: 100 },
    );
    expect(est.models).toEqual([
      { model: "gpt", trials: 10, usd: (10_000 * 3 + 1000 * 15) / 1e6 },
      { model: "offline", trials: 4, usd: null },
    ]);
    expect(est.usd).toBeCloseTo(0.045);
    expect(est.unpriced).toEqual(["offline"]);
  });
});
