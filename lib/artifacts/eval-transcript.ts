/**
 * One trial's transcript from an eval run folder (written by lib/evals/transcript.ts): the trial's
 * record in cases.json names a byte range of a `transcripts/*.jsonl` file, and only that range is
 * read (at most MAX_TRANSCRIPT_BYTES), never the whole file. The line is the run folder's content,
 * so it is checked for shape before the page draws it: what is not a message or a step is dropped
 * with a warning.
 */
import fs from "node:fs";
import type { UIMessage } from "ai";
import { MAX_TRANSCRIPT_BYTES, type TranscriptRef } from "@/lib/evals/transcript";
import { resolveWithin } from "@/lib/sandbox/resolve";
import { buildChatTrace } from "@/lib/trace/view";
import type { RawExchange, TraceStepData } from "@/lib/trace/types";
import type { EvalCases } from "./eval-cases";
import { errnoText } from "./json";
import type { EvalTranscriptView } from "./view/types";

export type TranscriptRead = { ok: true; view: EvalTranscriptView } | { ok: false; status: 404 | 422; error: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);

const ROLES = new Set(["user", "assistant", "system"]);
const isToolType = (type: string) => type.startsWith("tool-") || type === "dynamic-tool";

function messagesOf(v: unknown, warnings: string[]): UIMessage[] {
  if (!Array.isArray(v)) {
    warnings.push("no messages list");
    return [];
  }
  return v.flatMap((m, i) => {
    if (!isObject(m) || typeof m.role !== "string" || !ROLES.has(m.role) || !Array.isArray(m.parts)) {
      warnings.push(`messages[${i}] is not a message; left out`);
      return [];
    }
    const parts = (m.parts as unknown[]).filter((p, j) => {
      const ok = isObject(p) && typeof p.type === "string" && (!isToolType(p.type) || (typeof p.toolCallId === "string" && typeof p.state === "string"));
      if (!ok) warnings.push(`messages[${i}].parts[${j}] is not a message part; left out`);
      return ok;
    });
    return [{ ...m, id: typeof m.id === "string" ? m.id : `message-${i}`, role: m.role, parts } as UIMessage];
  });
}

const EMPTY_RAW: RawExchange = { request: { messages: [] }, response: { text: "", toolInputs: [], calls: [], nearMisses: [] }, truncated: true };

function rawOf(v: unknown): RawExchange {
  if (!isObject(v) || !isObject(v.request) || !isObject(v.response)) return EMPTY_RAW;
  const { request, response } = v;
  const lists = [request.messages, response.toolInputs, response.calls, response.nearMisses];
  return lists.every(Array.isArray) && typeof response.text === "string" ? (v as unknown as RawExchange) : EMPTY_RAW;
}

function stepsOf(v: unknown, warnings: string[]): TraceStepData[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((s, i) => {
    const fields = isObject(s) ? [s.turnId, s.messageId, s.model, s.startedAt] : [];
    if (!isObject(s) || fields.length !== 4 || !fields.every((f) => typeof f === "string") || num(s.stepNumber) === null) {
      warnings.push(`steps[${i}] is not a trace step; left out`);
      return [];
    }
    const toolCalls = Array.isArray(s.toolCalls)
      ? (s.toolCalls as unknown[]).filter((c) => isObject(c) && typeof c.toolCallId === "string" && typeof c.toolName === "string")
      : [];
    return [
      {
        ...s,
        toolMode: s.toolMode === "text" ? "text" : "native",
        retries: num(s.retries) ?? 0,
        toolCalls,
        raw: rawOf(s.raw),
      } as TraceStepData,
    ];
  });
}

/** Reads exactly the record's byte range; a range past the file's end, or above the bound, is refused. */
function readRange(dir: string, ref: TranscriptRef): { ok: true; text: string } | { ok: false; error: string } {
  if (ref.bytes > MAX_TRANSCRIPT_BYTES)
    return { ok: false, error: `${ref.file}: the trial's line is ${ref.bytes} bytes, above the ${MAX_TRANSCRIPT_BYTES}-byte bound; not read` };
  const resolved = resolveWithin(dir, ref.file, { label: "run folder" });
  if (!resolved.ok) return { ok: false, error: resolved.error.replace(/^Error: /, "") };
  let fd: number;
  try {
    fd = fs.openSync(resolved.abs, "r");
  } catch (e) {
    return { ok: false, error: `${ref.file}: ${errnoText(e)}` };
  }
  try {
    const buffer = Buffer.alloc(ref.bytes);
    const read = fs.readSync(fd, buffer, 0, ref.bytes, ref.offset);
    if (read < ref.bytes) return { ok: false, error: `${ref.file}: ends before the trial's line (${ref.offset}+${ref.bytes} bytes)` };
    return { ok: true, text: buffer.toString("utf8") };
  } finally {
    fs.closeSync(fd);
  }
}

/** The transcript of one trial (case × cell × trial number) of the run in `dir`. */
export function readEvalTranscript(dir: string, cases: EvalCases, caseName: string, cell: string, trial: number): TranscriptRead {
  const record = cases.trials.find((t) => t.case === caseName && t.cell === cell && t.trial === trial);
  if (!record) return { ok: false, status: 404, error: `No trial ${trial} of ${caseName} in ${cell} in this run.` };
  if (!record.transcript)
    return { ok: false, status: 404, error: `Trial ${trial} of ${caseName} in ${cell} has no transcript (a run from /evals keeps its chat instead).` };
  const range = readRange(dir, record.transcript);
  if (!range.ok) return { ok: false, status: 422, error: range.error };
  let raw: unknown;
  try {
    raw = JSON.parse(range.text);
  } catch {
    return { ok: false, status: 422, error: `${record.transcript.file}: the bytes the trial points at are not one JSON line (was the file edited?)` };
  }
  if (!isObject(raw) || raw.case !== caseName || raw.cell !== cell || raw.trial !== trial)
    return {
      ok: false,
      status: 422,
      error: `${record.transcript.file}: the line at byte ${record.transcript.offset} is another trial's (was the file edited?)`,
    };
  const warnings: string[] = [];
  const messages = messagesOf(raw.messages, warnings);
  const steps = buildChatTrace(stepsOf(raw.steps, warnings), []).turns.flatMap((t) => t.steps);
  const usage = isObject(raw.usage) ? raw.usage : {};
  return {
    ok: true,
    view: {
      case: caseName,
      cell,
      trial,
      messages,
      steps,
      usage: { inputTokens: num(usage.inputTokens), outputTokens: num(usage.outputTokens) },
      cut: typeof raw.cut === "string" ? raw.cut : null,
      warnings,
    },
  };
}
