import { describe, expect, it } from "vitest";
import type { TrialRecord } from "@/lib/evals/runner";
import { evalProgress } from "./eval-progress";
import { chunkProgress } from "./index-cmd";
import { progressBar, progressLine } from "./progress-line";

const HASHES = { width: 30, done: "#", todo: "-" };

/** A stand-in for stderr that keeps what is written. */
function fakeOut(isTTY: boolean) {
  const out = { isTTY, text: "", write: (t: string) => (out.text += t) };
  return out;
}

describe("progressBar", () => {
  it("is always `width` cells, filled to the nearest cell", () => {
    expect(progressBar(0, 3, HASHES)).toBe("-".repeat(30));
    expect(progressBar(1, 3, HASHES)).toBe(`${"#".repeat(10)}${"-".repeat(20)}`);
    expect(progressBar(1, 8, { width: 4, done: "█", todo: "░" })).toBe("█░░░"); // 0.5 cell rounds up
    expect(progressBar(3, 3, HASHES)).toBe("#".repeat(30));
    for (let done = 0; done <= 7; done++) expect(progressBar(done, 7, HASHES)).toHaveLength(30);
  });

  it("is empty for a total of 0, and never over- or underfilled", () => {
    expect(progressBar(0, 0, HASHES)).toBe("-".repeat(30));
    expect(progressBar(5, 3, HASHES)).toBe("#".repeat(30));
    expect(progressBar(-1, 3, HASHES)).toBe("-".repeat(30));
  });
});

describe("progressLine", () => {
  it("redraws in place on a terminal and ends the line once", () => {
    const out = fakeOut(true);
    const line = progressLine(out);
    expect(line.tty).toBe(true);
    line.end(); // nothing drawn: nothing to end
    line.draw("one");
    line.draw("two");
    line.end();
    line.end();
    expect(out.text).toBe("\r\x1b[2Kone\r\x1b[2Ktwo\n");
  });

  it("writes nothing to a pipe or a log", () => {
    const out = fakeOut(false);
    const line = progressLine(out);
    expect(line.tty).toBe(false);
    line.draw("one");
    line.end();
    expect(out.text).toBe("");
  });
});

const trial = (name: string, verdict: TrialRecord["verdict"], reason: string | null = null) =>
  ({ cell: "offline · native", case: name, trial: 1, verdict, reason }) as TrialRecord;

describe("toolroom eval's progress", () => {
  it("draws a bar with the counts on a terminal", () => {
    const out = fakeOut(true);
    const progress = evalProgress(out);
    progress.trial(trial("a", "pass"), 1, 3);
    progress.trial(trial("b", "fail", "wrong tool"), 2, 3);
    progress.trial(trial("c", "error", "boom"), 3, 3);
    expect(out.text).toBe(
      "\r\x1b[2K█████████░░░░░░░░░░░░░░░░░░░ 1/3  ✓ 1  ✗ 0  ! 0  offline · native: a" +
        "\r\x1b[2K███████████████████░░░░░░░░░ 2/3  ✓ 1  ✗ 1  ! 0  offline · native: b" +
        "\r\x1b[2K████████████████████████████ 3/3  ✓ 1  ✗ 1  ! 1  offline · native: c\n",
    );
  });

  it("writes a plain line per trial to a log", () => {
    const out = fakeOut(false);
    const progress = evalProgress(out);
    progress.trial(trial("a", "pass"), 1, 3);
    progress.trial(trial("b", "fail", "wrong tool"), 2, 3);
    progress.trial(trial("c", "error", "boom"), 3, 3);
    expect(out.text).toBe("[1/3] pass  offline · native  a #1\n[2/3] fail  offline · native  b #1 — wrong tool\n[3/3] error offline · native  c #1 — boom\n");
  });
});

describe("toolroom index's progress", () => {
  it("redraws once per percent on a terminal, and ends its line", () => {
    const out = fakeOut(true);
    const progress = chunkProgress("search_code", out);
    for (const done of [0, 1, 1, 3]) progress.update(done, 3);
    progress.end();
    expect(out.text).toBe(
      `\r\x1b[2Ksearch_code [${"-".repeat(30)}] 0/3 chunks` +
        `\r\x1b[2Ksearch_code [${"#".repeat(10)}${"-".repeat(20)}] 1/3 chunks` +
        `\r\x1b[2Ksearch_code [${"#".repeat(30)}] 3/3 chunks\n`,
    );
  });

  it("writes nothing for an empty index, nor to a pipe", () => {
    const empty = fakeOut(true);
    const none = chunkProgress("search_run_artifacts", empty);
    none.update(0, 0);
    none.end();
    expect(empty.text).toBe("");
    const piped = fakeOut(false);
    const progress = chunkProgress("search_code", piped);
    progress.update(1, 3);
    progress.end();
    expect(piped.text).toBe("");
  });
});
