import { describe, expect, it } from "vitest";
import { TEXT_PROTOCOLS } from "@/lib/chat/text-protocol/types";
import { settingsSchema } from "@/lib/settings/schema";
import { matrixCells } from "./runner";
import { parseSuite } from "./suite";
import { sweepChoice } from "./sweep";

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
