import { describe, expect, it } from "vitest";
import { TEXT_PROTOCOLS } from "@/lib/chat/text-protocol/types";
import { settingsSchema } from "@/lib/settings/schema";
import { MODE_CHOICES } from "./mode-choices";
import { matrixCells, trialCount } from "./runner";
import { parseSuite } from "./suite";
import { sweepChoice, sweepSize } from "./sweep";

describe("sweepChoice (protocols: all over HTTP)", () => {
  const suite = parseSuite("name: s\ncases: [{ name: a, prompt: hi }]\n", "s.eval.yaml");
  const settings = settingsSchema.parse({});

  it("runs native plus every text protocol for each model", () => {
    const cells = matrixCells(suite, settings, sweepChoice({ protocols: "all" }));
    expect(cells.map((c) => c.name)).toEqual(["offline · native", ...TEXT_PROTOCOLS.map((p) => `offline · text · ${p}`)]);
  });

  it("keeps modes named beside it, and leaves a list of protocols as it is", () => {
    expect(sweepChoice({ protocols: "all", modes: ["text"] })).toEqual({ modes: ["text"], protocols: [...TEXT_PROTOCOLS] });
    expect(sweepChoice({ protocols: ["xml"], trials: 2 })).toEqual({ protocols: ["xml"], trials: 2 });
  });
});

describe("sweepSize (the /evals page's line per mode choice)", () => {
  const settings = settingsSchema.parse({ llms: { offline: { provider: "offline" }, fake: { provider: "offline" } } });
  const suite = parseSuite(
    "name: s\nmatrix: { models: [offline, fake], modes: [native], trials: 2 }\ncases: [{ name: a, prompt: hi }, { name: b, prompt: hi }, { name: c, prompt: hi }]\n",
    "s.eval.yaml",
  );

  it("follows the chosen modes and protocols as the server expands them", () => {
    const size = (id: string) =>
      sweepSize(
        suite,
        settings,
        MODE_CHOICES.find((c) => c.id === id)!,
      );
    expect(size("suite")).toEqual({ modes: ["native"], protocols: 0, cells: 2, trials: 12, trialsPerModel: { offline: 6, fake: 6 } });
    const perModel = (1 + TEXT_PROTOCOLS.length) * 3 * 2;
    expect(size("sweep")).toEqual({
      modes: ["native", "text"],
      protocols: TEXT_PROTOCOLS.length,
      cells: 2 * (1 + TEXT_PROTOCOLS.length),
      trials: 2 * perModel,
      trialsPerModel: { offline: perModel, fake: perModel },
    });
    for (const choice of MODE_CHOICES) {
      const { id: _id, label: _label, ...asked } = choice;
      expect(sweepSize(suite, settings, choice).trials).toBe(trialCount(suite, settings, sweepChoice(asked)));
    }
  });
});
