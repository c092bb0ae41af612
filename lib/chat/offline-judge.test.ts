import { describe, expect, it } from "vitest";
import { offlineJudgeReply } from "./offline-judge";

const ask = (criteria: string, answer: string) => offlineJudgeReply(`Grade this answer:\n${JSON.stringify({ criteria, prompt: "p", calls: [], answer })}`);

describe("the offline judge's rule", () => {
  it("passes when every quoted phrase is in the answer, ignoring case", () => {
    expect(JSON.parse(ask('names "README" and "src"', "See readme.md in SRC/"))).toEqual({ verdict: "pass", reason: 'the answer contains "README", "src"' });
  });
  it("fails naming the phrases missing", () => {
    expect(JSON.parse(ask('names "README" and "src"', "See the docs"))).toEqual({ verdict: "fail", reason: 'the answer lacks "README", "src"' });
  });
  it("without quoted phrases, passes any non-empty answer", () => {
    expect(JSON.parse(ask("is helpful", "yes")).verdict).toBe("pass");
    expect(JSON.parse(ask("is helpful", "  ")).verdict).toBe("fail");
  });
});
