import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { TraceStepData } from "@/lib/trace/types";
import { MAX_TRANSCRIPT_BYTES, openTranscripts, transcriptLine, type TrialTranscript } from "./transcript";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-transcripts-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const step = (raw: string): TraceStepData => ({
  turnId: "t",
  messageId: "m",
  stepNumber: 0,
  model: "offline/offline",
  toolMode: "native",
  startedAt: "2026-12-01T00:00:00.000Z",
  retries: 0,
  toolCalls: [],
  raw: { request: { system: raw, messages: [] }, response: { text: raw, toolInputs: [], calls: [], nearMisses: [] }, truncated: false },
});

const transcript = (over: Partial<TrialTranscript> = {}): TrialTranscript => ({
  case: "c",
  cell: "offline · native",
  trial: 1,
  messages: [{ id: "u", role: "user", parts: [{ type: "text", text: "read notes.txt" }] }],
  steps: [step("hello")],
  usage: { inputTokens: 10, outputTokens: 4 },
  ...over,
});

describe("transcriptLine", () => {
  it("keeps a small transcript whole", () => {
    const t = transcript();
    expect(JSON.parse(transcriptLine(t))).toEqual(t);
  });

  it("cuts long strings first, then the raw exchanges, then the steps, to stay under the bound, and says what it left out", () => {
    const long = "x".repeat(40_000);
    const cut = JSON.parse(
      transcriptLine(transcript({ messages: [{ id: "a", role: "assistant", parts: [{ type: "text", text: long }] }] }), 20_000),
    ) as TrialTranscript;
    expect(cut.cut).toBe("strings longer than 16,384 characters were cut");
    expect((cut.messages[0]!.parts[0] as { text: string }).text).toMatch(/^x{16384}… \[cut: 23616 more chars\]$/);

    // Many steps whose raw exchanges alone exceed the bound: the exchanges go, the steps' numbers stay.
    const steps = Array.from({ length: 100 }, () => step("y".repeat(200)));
    const noRaw = JSON.parse(transcriptLine(transcript({ steps }), 50_000)) as TrialTranscript;
    expect(noRaw.cut).toBe("long strings were cut and the raw provider exchanges left out");
    expect(noRaw.steps).toHaveLength(100);
    expect(noRaw.steps[0]!.raw.response.text).toBe("");

    for (const max of [20_000, 50_000, MAX_TRANSCRIPT_BYTES]) {
      const line = transcriptLine(transcript({ steps, messages: [{ id: "a", role: "assistant", parts: [{ type: "text", text: long }] }] }), max);
      expect(Buffer.byteLength(line)).toBeLessThanOrEqual(max);
    }
  });
});

describe("openTranscripts", () => {
  it("appends one line per trial to its cell's file and points at it by byte range, also across a reopened writer (a resumed run)", () => {
    const first = openTranscripts(dir);
    const a = first.write(transcript({ trial: 1, messages: [{ id: "u", role: "user", parts: [{ type: "text", text: "naïve ünïcode" }] }] }));
    const b = first.write(transcript({ trial: 2 }));
    const other = first.write(transcript({ cell: "offline · text · json" }));
    first.close();
    const resumed = openTranscripts(dir);
    const c = resumed.write(transcript({ trial: 3 }));
    resumed.close();

    expect(a.file).toMatch(/^transcripts\/offline-native-[0-9a-f]{8}\.jsonl$/);
    expect([b.file, c.file]).toEqual([a.file, a.file]);
    expect(other.file).toMatch(/^transcripts\/offline-text-json-[0-9a-f]{8}\.jsonl$/);
    const bytes = fs.readFileSync(path.join(dir, a.file));
    for (const [ref, trial] of [
      [a, 1],
      [b, 2],
      [c, 3],
    ] as const) {
      expect(JSON.parse(bytes.subarray(ref.offset, ref.offset + ref.bytes).toString("utf8"))).toMatchObject({ trial, cell: "offline · native" });
    }
    expect(bytes.toString("utf8").split("\n").filter(Boolean)).toHaveLength(3);
  });
});
