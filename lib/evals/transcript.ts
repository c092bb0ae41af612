/**
 * A trial's transcript, kept in the run folder when there is no database to keep its chat (the
 * CLI): the messages the model saw and produced (tool calls with their inputs, outputs and
 * decisions in the message's metadata), the trace's steps (the raw exchange with the provider) and
 * the usage. One JSONL file per cell under `transcripts/`; the trial's record in cases.json points
 * at its line by byte offset, so a reader reads one line, never the whole file.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { UIMessage } from "ai";
import type { TraceStepData } from "@/lib/trace/types";

const TRANSCRIPTS_DIR = "transcripts";

/**
 * One trial's line is at most this long (UTF-8 bytes): a longer one has its long strings cut, then
 * its raw exchanges dropped, then its steps, until it fits. A reader refuses a longer line.
 */
export const MAX_TRANSCRIPT_BYTES = 256 * 1024;

/** Where a trial's transcript is: a file relative to the run folder, and its line's bytes in it. */
export interface TranscriptRef {
  file: string;
  offset: number;
  bytes: number;
}

export interface TrialTranscript {
  case: string;
  cell: string;
  trial: number;
  messages: UIMessage[];
  steps: TraceStepData[];
  usage: { inputTokens: number | null; outputTokens: number | null };
  /** What was left out to stay under MAX_TRANSCRIPT_BYTES, in words; absent when nothing was. */
  cut?: string;
}

/** Strings longer than `limit` characters, cut to it, everywhere in the value. */
function cutStrings(value: unknown, limit: number): unknown {
  if (typeof value === "string") return value.length > limit ? `${value.slice(0, limit)}… [cut: ${value.length - limit} more chars]` : value;
  if (Array.isArray(value)) return value.map((v) => cutStrings(v, limit));
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutStrings(v, limit)]));
  return value;
}

const CUT_LIMITS = [16_384, 4_096, 1_024, 256];

/** The transcript as one JSON line of at most `max` bytes, cut as little as it takes. */
export function transcriptLine(t: TrialTranscript, max = MAX_TRANSCRIPT_BYTES): string {
  const fits = (v: TrialTranscript) => {
    const line = JSON.stringify(v);
    return Buffer.byteLength(line) <= max ? line : null;
  };
  const whole = fits(t);
  if (whole) return whole;
  for (const limit of CUT_LIMITS) {
    const line = fits({ ...(cutStrings(t, limit) as TrialTranscript), cut: `strings longer than ${limit.toLocaleString("en")} characters were cut` });
    if (line) return line;
  }
  const small = cutStrings(t, CUT_LIMITS.at(-1)!) as TrialTranscript;
  const noRaw = {
    ...small,
    steps: small.steps.map((s) => ({
      ...s,
      raw: { request: { messages: [] }, response: { text: "", toolInputs: [], calls: [], nearMisses: [] }, truncated: true },
    })),
    cut: "long strings were cut and the raw provider exchanges left out",
  };
  const line = fits(noRaw) ?? fits({ ...small, steps: [], cut: "long strings were cut and the steps left out" });
  if (line) return line;
  return JSON.stringify({ ...t, messages: [], steps: [], cut: `above ${max.toLocaleString("en")} bytes even when cut: only the usage was kept` });
}

/** A cell's file name: readable, and distinct for cells whose names read the same once made safe. */
function cellFile(cell: string): string {
  const slug =
    cell
      .replace(/[^A-Za-z0-9._-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 80) || "cell";
  return `${slug}-${crypto.createHash("sha256").update(cell).digest("hex").slice(0, 8)}.jsonl`;
}

export interface TranscriptWriter {
  write(t: TrialTranscript): TranscriptRef;
  close(): void;
}

/**
 * Appends transcripts to `dir/transcripts/<cell>.jsonl`, one whole line a write (a resumed run
 * appends after what the first attempt wrote, so its earlier trials' offsets stay true).
 */
export function openTranscripts(dir: string, max = MAX_TRANSCRIPT_BYTES): TranscriptWriter {
  const files = new Map<string, { fd: number; size: number }>();
  return {
    write(t) {
      const rel = `${TRANSCRIPTS_DIR}/${cellFile(t.cell)}`;
      let open = files.get(rel);
      if (!open) {
        fs.mkdirSync(path.join(dir, TRANSCRIPTS_DIR), { recursive: true });
        const fd = fs.openSync(path.join(dir, rel), "a");
        open = { fd, size: fs.fstatSync(fd).size };
        files.set(rel, open);
      }
      const line = Buffer.from(transcriptLine(t, max));
      fs.writeSync(open.fd, Buffer.concat([line, Buffer.from("\n")]));
      const ref = { file: rel, offset: open.size, bytes: line.length };
      open.size += line.length + 1;
      return ref;
    },
    close() {
      for (const { fd } of files.values()) fs.closeSync(fd);
      files.clear();
    },
  };
}
