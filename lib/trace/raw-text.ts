import type { RawExchange } from "./types";

export interface RawSegment {
  text: string;
  kind: "plain" | "call" | "near-miss";
  /** For a near-miss: the parser's reason. */
  reason?: string;
}

/**
 * A text-mode reply cut into plain text, recognised call spans and near-misses, in order, for the
 * raw view to highlight. Spans that overlap or fall outside the text (a cut trace) are skipped.
 */
export function rawSegments(response: RawExchange["response"]): RawSegment[] {
  const { text } = response;
  const marks = [
    ...response.calls.map((c) => ({ start: c.start, end: c.end, kind: "call" as const, reason: undefined })),
    ...response.nearMisses.flatMap((m) =>
      m.start !== undefined && m.end !== undefined ? [{ start: m.start, end: m.end, kind: "near-miss" as const, reason: m.error }] : [],
    ),
  ].sort((a, b) => a.start - b.start);
  const out: RawSegment[] = [];
  let at = 0;
  for (const mark of marks) {
    if (mark.start < at || mark.end > text.length || mark.end <= mark.start) continue;
    if (mark.start > at) out.push({ text: text.slice(at, mark.start), kind: "plain" });
    out.push({ text: text.slice(mark.start, mark.end), kind: mark.kind, ...(mark.reason ? { reason: mark.reason } : {}) });
    at = mark.end;
  }
  if (at < text.length) out.push({ text: text.slice(at), kind: "plain" });
  return out;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The step's request as a curl command against the provider, the key left as a shell variable.
 * Undefined when the step has no HTTP request (the offline model).
 */
export function curlCommand(request: RawExchange["request"]): string | undefined {
  if (!request.url || request.body === undefined) return undefined;
  const anthropic = /\/messages$/.test(request.url);
  const auth = anthropic
    ? ["-H", quote("x-api-key: $ANTHROPIC_API_KEY"), "-H", quote("anthropic-version: 2023-06-01")]
    : ["-H", `"authorization: Bearer $API_KEY"`];
  const body = typeof request.body === "string" ? request.body : JSON.stringify(request.body, null, 2);
  return ["curl", "-N", quote(request.url), "-H", quote("content-type: application/json"), ...auth, "-d", quote(body)].join(" ");
}
