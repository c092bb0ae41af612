import { describe, expect, it } from "vitest";
import { admitCommand, allowlistPolicy, pipelineStages } from "./shell-policy";

describe("admitCommand", () => {
  it("uses the schema's defaults when settings say nothing", () => {
    expect(admitCommand("git log --oneline | head -5")).toBeNull();
    expect(admitCommand("python x.py")).toMatch(/not an allowed command/);
    expect(admitCommand("ls", { allowedCommands: ["cat"] })).toMatch(/"ls" is not an allowed command/);
    expect(admitCommand("cat a", { blockedSubstrings: ["cat"] })).toMatch(/blocked text "cat"/);
  });

  it("fails closed when a policy throws", () => {
    const boom = { name: "boom", check: () => { throw new Error("bad"); } };
    expect(admitCommand("ls", {}, [boom])).toBe('policy "boom" failed: bad');
  });
});

describe("pipelineStages", () => {
  it("splits on unquoted pipes only", () => {
    expect(pipelineStages("grep 'a|b' f | wc -l")).toEqual(["grep 'a|b' f", "wc -l"]);
    expect(pipelineStages('grep "x\\"|y" f')).toEqual(['grep "x\\"|y" f']);
    expect(pipelineStages("ls |")).toEqual(["ls", ""]);
  });

  it("refuses an empty stage", () => {
    expect(allowlistPolicy(["ls"]).check("ls |")).toBe("empty command (pipeline stage 2)");
  });
});
