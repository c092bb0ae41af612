import { describe, expect, it } from "vitest";
import { draftCase, caseNameFrom } from "./case-draft";
import { parseSuite } from "./suite";

describe("the draft of a saved case", () => {
  it("names the case from the prompt and expects the calls the model made, as a case the suite schema accepts", () => {
    const yaml = draftCase("List files in lib/, please!", [
      { tool: "list_files", input: { path: "lib" } },
      { tool: "read_file", input: {} },
    ]);
    const suite = parseSuite(`name: s\ncases:\n  - ${yaml.trimEnd().split("\n").join("\n    ")}\n`, "s.eval.yaml");
    expect(suite.cases[0]).toMatchObject({
      name: "list-files-in-lib-please",
      prompt: "List files in lib/, please!",
      expect: { calls: [{ tool: "list_files", args: { path: "lib" } }, { tool: "read_file" }] },
    });
    expect(suite.cases[0]!.expect.calls[1]).not.toHaveProperty("args");
  });

  it("expects no call when the turn made none, and names a prompt without letters", () => {
    expect(draftCase("???", [])).toBe("name: saved-case\nprompt: ???\nexpect:\n  noCalls: true\n");
    expect(caseNameFrom("a".repeat(100))).toHaveLength(48);
  });
});
