import { describe, expect, it } from "vitest";
import { settingsSchema } from "@/lib/settings/schema";
import { matrixCells } from "./runner";
import { parseSuite } from "./suite";

const settings = settingsSchema.parse({
  chat: { textProtocol: "json" },
  llms: { offline: { provider: "offline" }, hermesy: { provider: "offline", textProtocol: "hermes" } },
});

describe("the cells of a run", () => {
  it("gives each model its own text protocol unless the run or the suite names protocols", () => {
    const suite = parseSuite("name: s\nmatrix: { models: [offline, hermesy], modes: [text] }\ncases: [{ name: c, prompt: hi }]\n", "s.eval.yaml");
    expect(matrixCells(suite, settings).map((c) => [c.name, c.protocol])).toEqual([
      ["offline · text · json", "json"],
      ["hermesy · text · hermes", "hermes"],
    ]);
    expect(matrixCells(suite, settings, { protocols: ["xml"] }).map((c) => c.protocol)).toEqual(["xml", "xml"]);
  });

  it("names a text cell by its protocol even when the run has one, so runs in two protocols never share a cell", () => {
    const suite = parseSuite("name: s\nmatrix: { modes: [native, text] }\ncases: [{ name: c, prompt: hi }]\n", "s.eval.yaml");
    expect(matrixCells(suite, settings, { protocols: ["xml"] }).map((c) => c.name)).toEqual(["offline · native", "offline · text · xml"]);
    expect(matrixCells(suite, settings, { protocols: ["action"] }).map((c) => c.name)).toEqual(["offline · native", "offline · text · action"]);
  });

  it("takes every text protocol in a suite", () => {
    const suite = parseSuite(
      "name: s\nmatrix: { modes: [native, text], protocols: [json, action, hermes, xml, llama, mistral] }\ncases: [{ name: c, prompt: hi }]\n",
      "s.eval.yaml",
    );
    expect(matrixCells(suite, settings).map((c) => c.name)).toEqual([
      "offline · native",
      "offline · text · json",
      "offline · text · action",
      "offline · text · hermes",
      "offline · text · xml",
      "offline · text · llama",
      "offline · text · mistral",
    ]);
  });
});
