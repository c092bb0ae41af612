import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTranscripts, type TranscriptRef, type TrialTranscript } from "@/lib/evals/transcript";
import { readEvalCasesFile } from "./eval-cases";
import { readEvalTranscript } from "./eval-transcript";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-transcript-read-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const CELL = "offline · native";

const transcript = (trial: number, over: Partial<TrialTranscript> = {}): TrialTranscript => ({
  case: "read-notes",
  cell: CELL,
  trial,
  messages: [
    { id: "u", role: "user", parts: [{ type: "text", text: "read notes.txt" }] },
    {
      id: "a",
      role: "assistant",
      parts: [
        { type: "step-start" },
        { type: "tool-read_file", toolCallId: "call-1", state: "output-available", input: { path: "notes.txt" }, output: "alpha" },
        { type: "text", text: "It says alpha." },
      ],
    },
  ],
  steps: [
    {
      turnId: "turn",
      messageId: "a",
      stepNumber: 0,
      model: "offline/offline",
      toolMode: "native",
      startedAt: "2026-12-01T00:00:00.000Z",
      retries: 0,
      inputTokens: 12,
      outputTokens: 3,
      toolCalls: [{ toolCallId: "call-1", toolName: "read_file", proposedAt: "2026-12-01T00:00:00.010Z", executionMs: 2 }],
      raw: { request: { system: "You are…", messages: [] }, response: { text: "", toolInputs: [], calls: [], nearMisses: [] }, truncated: false },
    },
  ],
  usage: { inputTokens: 12, outputTokens: 3 },
  ...over,
});

/** A run folder: transcripts written as the runner writes them, and cases.json pointing at them (or at what `refs` says). */
function runWith(transcripts: TrialTranscript[], refs?: (written: TranscriptRef[]) => unknown[]) {
  const writer = openTranscripts(dir);
  const written = transcripts.map((t) => writer.write(t));
  writer.close();
  const pointers = refs ? refs(written) : written;
  const trials = transcripts.map((t, i) => ({
    case: t.case,
    cell: t.cell,
    model: "offline",
    mode: "native",
    trial: t.trial,
    verdict: "pass",
    transcript: pointers[i],
  }));
  fs.writeFileSync(path.join(dir, "cases.json"), JSON.stringify({ suite: "s", trials }));
  const cases = readEvalCasesFile(path.join(dir, "cases.json"), "cases.json");
  if (!cases.ok) throw new Error(cases.error);
  return cases.data;
}

describe("readEvalTranscript", () => {
  it("reads one trial's line: its messages, its steps as the trace panel shows them, its usage", () => {
    const cases = runWith([transcript(1), transcript(2, { usage: { inputTokens: 99, outputTokens: 1 } })]);
    const read = readEvalTranscript(dir, cases, "read-notes", CELL, 2);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.view).toMatchObject({ trial: 2, usage: { inputTokens: 99, outputTokens: 1 }, cut: null, warnings: [] });
    expect(read.view.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(read.view.steps).toHaveLength(1);
    expect(read.view.steps[0]!.toolCalls[0]).toMatchObject({ toolName: "read_file", executionMs: 2 });
  });

  it("says so for a trial without a transcript, and for one the run does not have", () => {
    const cases = runWith([transcript(1)], () => [undefined]);
    expect(readEvalTranscript(dir, cases, "read-notes", CELL, 1)).toMatchObject({ ok: false, status: 404, error: expect.stringMatching(/has no transcript/) });
    expect(readEvalTranscript(dir, cases, "read-notes", CELL, 7)).toMatchObject({
      ok: false,
      status: 404,
      error: "No trial 7 of read-notes in offline · native in this run.",
    });
  });

  it("refuses a range that points at another trial's line, past the end of the file, or out of transcripts/", () => {
    const swapped = runWith([transcript(1), transcript(2)], (w) => [w[1], w[0]]);
    expect(readEvalTranscript(dir, swapped, "read-notes", CELL, 1)).toMatchObject({ ok: false, status: 422, error: expect.stringMatching(/another trial's/) });
    const past = runWith([transcript(1)], (w) => [{ ...w[0], offset: w[0]!.offset + 10 }]);
    expect(readEvalTranscript(dir, past, "read-notes", CELL, 1)).toMatchObject({
      ok: false,
      status: 422,
      error: expect.stringMatching(/ends before|not one JSON line/),
    });
    // A path out of transcripts/ is not taken for a transcript at all.
    const escaping = runWith([transcript(1)], (w) => [{ ...w[0], file: "transcripts/../../etc/passwd" }]);
    expect(escaping.trials[0]!.transcript).toBeNull();
  });

  it("refuses a transcripts file that is a symlink out of the run folder", () => {
    const cases = runWith([transcript(1)]);
    const ref = cases.trials[0]!.transcript!;
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-transcript-outside-"));
    try {
      fs.renameSync(path.join(dir, ref.file), path.join(outside, "t.jsonl"));
      fs.symlinkSync(path.join(outside, "t.jsonl"), path.join(dir, ref.file));
      expect(readEvalTranscript(dir, cases, "read-notes", CELL, 1)).toMatchObject({
        ok: false,
        status: 422,
        error: expect.stringMatching(/escapes the run folder/),
      });
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it("leaves out what is not a message, a part or a step, with a warning each", () => {
    const odd = transcript(1, {
      messages: [
        { id: "u", role: "user", parts: [{ type: "text", text: "hi" }, { type: "tool-x" } as never] },
        { id: "w", role: "wizard", parts: [] } as never,
      ],
      steps: [{ stepNumber: "one" } as never],
    });
    const read = readEvalTranscript(dir, runWith([odd]), "read-notes", CELL, 1);
    expect(read.ok && read.view.warnings).toEqual([
      "messages[0].parts[1] is not a message part; left out",
      "messages[1] is not a message; left out",
      "steps[0] is not a trace step; left out",
    ]);
  });
});
