import { streamText } from "ai";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { z } from "zod";
import { JUDGE_SYSTEM_MARKER, type JudgeRequest } from "@/lib/chat/offline-judge";
import type { Settings } from "@/lib/settings/schema";
import type { MadeCall } from "./matchers";
import type { SuiteProblem } from "./suite-checks";
import { problemLines, SuiteError } from "./suite";
import type { Suite } from "./suite-schema";

/**
 * What the judge made of one trial's answer, recorded on the trial (`judge` in cases.json, the
 * database and a cell's failing cases): pass / fail as the judge said, `unreadable` when its reply
 * could not be read, `error` when the call itself failed. `model` is the settings `llms` name.
 */
export interface JudgeRecord {
  verdict: "pass" | "fail" | "unreadable" | "error";
  reason: string;
  model: string;
}

/** A judge's call ends within this, whatever the provider does (the trial's own signal also stops it). */
const JUDGE_TIMEOUT_MS = 120_000;
/** A verdict and one sentence fit in far less; a rambling judge is cut off rather than billed on. */
const JUDGE_MAX_OUTPUT_TOKENS = 400;
/** The answer and calls shown to the judge are capped: a huge answer must not make a huge bill. */
const JUDGE_INPUT_CHARS = 20_000;

const JUDGE_INSTRUCTIONS = `${JUDGE_SYSTEM_MARKER} You grade one answer of an AI assistant against the criteria you are given.
The user message holds a JSON object: "criteria", the user's "prompt", the tool "calls" the assistant made, and its final "answer".
Judge only whether the answer meets the criteria. Reply with only a JSON object, no other text:
{"verdict": "pass" or "fail", "reason": "<one short sentence>"}`;

const replySchema = z.object({ verdict: z.enum(["pass", "fail"]), reason: z.string() });

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** The first balanced `{…}` in the text (strings and escapes respected), or undefined. */
function firstObject(text: string): string | undefined {
  for (let start = text.indexOf("{"); start >= 0; start = text.indexOf("{", start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const ch = text[i];
      if (inString) {
        if (ch === "\\") i++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === "{") depth++;
      else if (ch === "}" && --depth === 0) {
        const candidate = text.slice(start, i + 1);
        try {
          JSON.parse(candidate);
          return candidate;
        } catch {
          break;
        }
      }
    }
  }
  return undefined;
}

/**
 * Reads a judge's reply: a JSON object with a verdict and a reason, also when a model wraps it in
 * a code fence or a sentence. Anything else is unreadable, with what was wrong — never a throw.
 */
export function parseJudgeReply(text: string): { verdict: "pass" | "fail"; reason: string } | { unreadable: string } {
  const json = firstObject(text);
  const shown = JSON.stringify(clip(text.trim(), 80));
  if (json === undefined) return { unreadable: text.trim() ? `no JSON object in ${shown}` : "the reply is empty" };
  const raw = JSON.parse(json) as unknown;
  const normalised =
    raw && typeof raw === "object" && typeof (raw as { verdict?: unknown }).verdict === "string"
      ? { ...raw, verdict: (raw as { verdict: string }).verdict.trim().toLowerCase() }
      : raw;
  const parsed = replySchema.safeParse(normalised);
  if (!parsed.success) return { unreadable: `expected {"verdict": "pass" | "fail", "reason": "…"}, got ${JSON.stringify(clip(json, 80))}` };
  return { verdict: parsed.data.verdict, reason: parsed.data.reason.trim() || "(no reason given)" };
}

export interface JudgeInput {
  criteria: string;
  prompt: string;
  calls: readonly MadeCall[];
  answer: string;
  model: LanguageModelV4;
  /** The settings `llms` name, recorded with the verdict. */
  modelRef: string;
  signal?: AbortSignal;
}

/** Asks the judge model (through the AI SDK, like any chat turn) whether the answer meets the criteria. */
export async function askJudge(input: JudgeInput): Promise<JudgeRecord> {
  const request: JudgeRequest = {
    criteria: input.criteria,
    prompt: clip(input.prompt, JUDGE_INPUT_CHARS),
    calls: input.calls.map((c) => ({ tool: c.tool, input: c.input })),
    answer: clip(input.answer, JUDGE_INPUT_CHARS),
  };
  const signals = [AbortSignal.timeout(JUDGE_TIMEOUT_MS), ...(input.signal ? [input.signal] : [])];
  let text: string;
  // Streamed, as chat turns are: the same provider path (and the same fake server in tests).
  let failure: unknown;
  try {
    const result = streamText({
      model: input.model,
      instructions: JUDGE_INSTRUCTIONS,
      prompt: `Grade this answer:\n${clip(JSON.stringify(request), JUDGE_INPUT_CHARS * 3)}`,
      maxOutputTokens: JUDGE_MAX_OUTPUT_TOKENS,
      temperature: 0,
      abortSignal: AbortSignal.any(signals),
      onError: ({ error }) => {
        failure ??= error;
      },
    });
    text = await result.text;
  } catch (error) {
    failure ??= error;
    text = "";
  }
  if (failure !== undefined) {
    const message = failure instanceof Error ? failure.message : JSON.stringify(failure);
    return { verdict: "error", reason: message.split("\n")[0] || "the judge call failed", model: input.modelRef };
  }
  const read = parseJudgeReply(text);
  if ("unreadable" in read) return { verdict: "unreadable", reason: read.unreadable, model: input.modelRef };
  return { ...read, model: input.modelRef };
}

/** The line a trial's reasons get from its judge (repeatable enough to count as a failure hint). */
export function judgeReason(record: JudgeRecord): string {
  if (record.verdict === "unreadable") return `judge reply unreadable: ${record.reason}`;
  if (record.verdict === "error") return `judge error: ${record.reason}`;
  return `judge ${record.model} says ${record.verdict}: ${record.reason}`;
}

/**
 * Judges a suite asks for that these settings cannot give: the model must be an `llms` entry that
 * chats (the `search.embeddings` entry cannot). Only names are accepted (the schema refuses an
 * inline provider), so a suite — trusted or not — can only spend on models the person configured.
 */
export function judgeProblems(suite: Suite, settings: Settings): SuiteProblem[] {
  const embedder = settings.search.embeddings?.type === "ref" ? settings.search.embeddings.ref : undefined;
  const known = Object.keys(settings.llms).filter((name) => name !== embedder);
  const problems: SuiteProblem[] = [];
  for (const [caseIndex, c] of suite.cases.entries()) {
    const model = c.expect.answer?.judge === undefined ? undefined : c.expect.answer.model;
    if (model === undefined) continue;
    if (model === embedder)
      problems.push({ caseIndex, key: "expect.answer.model", message: `"${model}" is the embedding model (search.embeddings); a judge must be a chat model` });
    else if (!settings.llms[model])
      problems.push({ caseIndex, key: "expect.answer.model", message: `no model named "${model}" in settings llms (known: ${known.join(", ") || "none"})` });
  }
  return problems;
}

/** Model calls the judges of one run may make: one per trial of a judged case, in every cell. */
export function judgeCallCount(suite: Suite, cells: number, trials: number): number {
  return cells * trials * suite.cases.filter((c) => c.expect.answer?.judge !== undefined).length;
}

/** Refuses a suite whose judges these settings cannot give, naming the file, the case and the key. */
export function assertJudgesUsable(suite: Suite, settings: Settings, file: string): void {
  const problems = judgeProblems(suite, settings);
  if (problems.length) throw new SuiteError(problemLines(file, suite, problems));
}
