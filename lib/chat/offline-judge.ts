/**
 * The offline model as an eval judge: a scripted stand-in, so a suite with `expect.answer.judge`
 * runs (and is tested) without a network. The rule is simple and documented (docs/evals.md, "LLM judge"):
 * every phrase the criteria put in double quotes must appear in the answer, ignoring case; criteria
 * without a quoted phrase pass any non-empty answer. Its reply has the shape a real judge is asked
 * for, so the same parser reads both.
 */

/** The judge's system prompt starts with this; the offline model answers such a request by the rule above. */
export const JUDGE_SYSTEM_MARKER = "You are an eval judge.";

/** What the judge's user message holds, as one JSON object after its first line. */
export interface JudgeRequest {
  criteria: string;
  prompt: string;
  calls: { tool: string; input: unknown }[];
  answer: string;
}

/** The request inside the user message, or undefined when it is not one. */
export function readJudgeRequest(text: string): JudgeRequest | undefined {
  const start = text.indexOf("{");
  if (start < 0) return undefined;
  try {
    const value = JSON.parse(text.slice(start)) as Partial<JudgeRequest>;
    if (typeof value.criteria !== "string" || typeof value.answer !== "string") return undefined;
    return { criteria: value.criteria, answer: value.answer, prompt: String(value.prompt ?? ""), calls: Array.isArray(value.calls) ? value.calls : [] };
  } catch {
    return undefined;
  }
}

/** The offline judge's reply: `{"verdict": "pass" | "fail", "reason": …}`. */
export function offlineJudgeReply(text: string): string {
  const request = readJudgeRequest(text);
  if (!request) return JSON.stringify({ verdict: "fail", reason: "the offline judge found no request to judge" });
  const phrases = Array.from(request.criteria.matchAll(/"([^"]+)"/g), (m) => m[1]!);
  const answer = request.answer.toLowerCase();
  if (!phrases.length)
    return JSON.stringify(
      request.answer.trim()
        ? { verdict: "pass", reason: "the answer is not empty (no quoted phrase to look for)" }
        : { verdict: "fail", reason: "the answer is empty" },
    );
  const missing = phrases.filter((p) => !answer.includes(p.toLowerCase()));
  return JSON.stringify(
    missing.length
      ? { verdict: "fail", reason: `the answer lacks ${missing.map((p) => JSON.stringify(p)).join(", ")}` }
      : { verdict: "pass", reason: `the answer contains ${phrases.map((p) => JSON.stringify(p)).join(", ")}` },
  );
}
