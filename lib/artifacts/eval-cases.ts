/**
 * An eval run's cases.json (written by lib/evals/results.ts): every trial, and the cases'
 * expectations. Read leniently: a field a trial lacks (older runs have no tokens) is null, and a
 * hand-edited trial that is not an object is skipped with a warning rather than breaking the page.
 */
import { recordedCell } from "@/lib/evals/cell-name";
import type { MadeCall } from "@/lib/evals/matchers";
import type { RecordedExpect } from "@/lib/evals/call-diff";
import type { TranscriptRef } from "@/lib/evals/transcript";
import { readTypedFile, type FileResult, type ReadOptions } from "./json";

interface EvalJudge {
  verdict: string | null;
  reason: string | null;
  model: string | null;
}

interface EvalTrial {
  case: string;
  cell: string;
  model: string;
  mode: string;
  protocol: string | null;
  trial: number;
  prompt: string | null;
  verdict: string;
  reasons: string[];
  calls: MadeCall[];
  answer: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  chat_id: string | null;
  /** Where the run folder keeps the trial's transcript (CLI runs), checked for shape; read by eval-transcript.ts. */
  transcript: TranscriptRef | null;
  /** An LLM judge's verdict on the answer, when the case asked for one. */
  judge: EvalJudge | null;
}

export interface EvalCases {
  suite: string | null;
  partial: boolean;
  total: number | null;
  expectations: Record<string, RecordedExpect>;
  trials: EvalTrial[];
  warnings: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === "string" ? v : null);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);

function judgeOf(v: unknown): EvalJudge | null {
  if (!isObject(v)) return null;
  return { verdict: typeof v.verdict === "boolean" ? (v.verdict ? "pass" : "fail") : text(v.verdict), reason: text(v.reason), model: text(v.model) };
}

/** Runs written before outcomes took the suite's spelling say `not-admitted`, `timed-out`. */
const outcomeOf = (v: unknown) => text(v)?.replace(/-/g, "_") ?? "unknown";

function callsOf(v: unknown): MadeCall[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((c) => (isObject(c) && typeof c.tool === "string" ? [{ tool: c.tool, input: c.input, outcome: outcomeOf(c.outcome) }] : []));
}

/** A transcript reference as written (lib/evals/transcript.ts): a file under transcripts/, a byte range. */
function transcriptOf(v: unknown): TranscriptRef | null {
  if (!isObject(v) || typeof v.file !== "string" || !/^transcripts\/[A-Za-z0-9._-]+\.jsonl$/.test(v.file)) return null;
  const offset = num(v.offset);
  const bytes = num(v.bytes);
  return offset !== null && bytes !== null && Number.isInteger(offset) && Number.isInteger(bytes) && offset >= 0 && bytes > 0
    ? { file: v.file, offset, bytes }
    : null;
}

function readEvalCases(raw: unknown, label: string): EvalCases {
  if (!isObject(raw) || !Array.isArray(raw.trials)) throw new Error(`${label}: not an eval run's cases.json (no trials list)`);
  const warnings: string[] = [];
  const trials: EvalTrial[] = [];
  raw.trials.forEach((t: unknown, i) => {
    if (!isObject(t) || typeof t.case !== "string" || typeof t.cell !== "string") {
      warnings.push(`${label}: trials[${i}] has no case or cell; skipped`);
      return;
    }
    const chatId = text(t.chat_id);
    // A judge may sit on the trial or inside its failure detail.
    const detail = isObject(t.detail) ? t.detail : {};
    trials.push({
      case: t.case,
      cell: recordedCell({ cell: t.cell, model: t.model, mode: t.mode, protocol: t.protocol }),
      model: text(t.model) ?? t.cell.split(" · ")[0]!,
      mode: text(t.mode) ?? "native",
      protocol: text(t.protocol),
      trial: num(t.trial) ?? 0,
      prompt: text(t.prompt),
      verdict: text(t.verdict) ?? "unknown",
      reasons: Array.isArray(t.reasons) ? t.reasons.filter((r): r is string => typeof r === "string") : [],
      calls: callsOf(t.calls),
      answer: text(t.answer),
      input_tokens: num(t.input_tokens),
      output_tokens: num(t.output_tokens),
      chat_id: chatId !== null && /^[A-Za-z0-9_-]{1,64}$/.test(chatId) ? chatId : null,
      transcript: transcriptOf(t.transcript),
      judge: judgeOf(t.judge ?? detail.judge),
    });
  });
  const expectations: Record<string, RecordedExpect> = {};
  if (isObject(raw.expectations)) for (const [name, e] of Object.entries(raw.expectations)) if (isObject(e)) expectations[name] = e;
  return { suite: text(raw.suite), partial: raw.partial === true, total: num(raw.total), expectations, trials, warnings };
}

export function readEvalCasesFile(file: string, label: string, options?: ReadOptions): FileResult<EvalCases> {
  return readTypedFile(file, label, readEvalCases, options);
}
