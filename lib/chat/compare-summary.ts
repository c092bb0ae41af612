import type { UIMessage } from "ai";
import { canonicalJson } from "@/lib/tools/canonical-json";
import { isToolPart, toolNameOf } from "./history";
import { readMetadata } from "./metadata";

/** One tool call a column's model made, in the order it made them. */
export interface ColumnCall {
  tool: string;
  /** The arguments as canonical JSON, so key order never counts as a difference. */
  args: string;
  state: string;
  isError: boolean;
}

/**
 * What one column did. Numbers the turn trace did not record (an older chat, a provider without
 * usage) are undefined — shown as "—", never as 0.
 */
export interface ColumnSummary {
  calls: ColumnCall[];
  steps: number;
  inputTokens?: number;
  outputTokens?: number;
  cachedTokens?: number;
  ttftMs?: number;
  durationMs?: number;
  errors: string[];
}

function isErrorOutput(output: unknown): boolean {
  return typeof output === "string" && output.startsWith("Error:");
}

/** The sum of a number over the turns that recorded it; undefined when none did. */
function sumOf(values: (number | undefined)[]): number | undefined {
  const known = values.filter((v): v is number => typeof v === "number");
  return known.length ? known.reduce((a, b) => a + b, 0) : undefined;
}

export function summarizeColumn(messages: UIMessage[]): ColumnSummary {
  const answers = messages.filter((m) => m.role === "assistant");
  const turns = answers.map((m) => readMetadata(m.metadata).turn);
  const calls: ColumnCall[] = [];
  const errors: string[] = [];
  let stepStarts = 0;
  for (const message of answers) {
    const meta = readMetadata(message.metadata);
    if (meta.error) errors.push(meta.error);
    for (const part of message.parts) {
      if (part.type === "step-start") stepStarts++;
      if (!isToolPart(part)) continue;
      const tool = toolNameOf(part);
      const output = part.state === "output-available" ? part.output : undefined;
      const isError = part.state === "output-error" || isErrorOutput(output);
      if (part.state === "output-error") errors.push(`${tool}: ${part.errorText}`);
      else if (isError) errors.push(`${tool}: ${String(output).split("\n", 1)[0]}`);
      calls.push({ tool, args: canonicalJson(part.input ?? {}), state: part.state, isError });
    }
  }
  // Steps from the trace when every turn has one; otherwise the step boundaries stored in the parts.
  const traced = turns.every((t) => t !== undefined) && turns.length > 0;
  return {
    calls,
    steps: traced ? turns.reduce((n, t) => n + (t?.steps ?? 0), 0) : stepStarts,
    inputTokens: sumOf(turns.map((t) => t?.inputTokens)),
    outputTokens: sumOf(turns.map((t) => t?.outputTokens)),
    cachedTokens: sumOf(turns.map((t) => t?.cachedTokens)),
    ttftMs: turns[0]?.ttftMs,
    durationMs: sumOf(turns.map((t) => t?.durationMs)),
    errors,
  };
}

/**
 * Where the columns' calls part ways, call by call (the n-th call of each column side by side):
 * a different tool, the same tool with different arguments, or a column that made no n-th call
 * while others did. `columns` lists the columns each difference sets apart (for highlighting).
 */
export type Difference =
  | { kind: "different-tool"; position: number; tools: (string | null)[]; columns: number[] }
  | { kind: "different-arguments"; position: number; tool: string; args: (string | null)[]; columns: number[] }
  | { kind: "missed-call"; position: number; tool: string; columns: number[] };

/** The indexes whose value is not the most common one (ties: the first value seen wins). */
function outliers(values: string[]): number[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let majority = values[0];
  for (const [v, n] of counts) if (n > (counts.get(majority!) ?? 0)) majority = v;
  return values.flatMap((v, i) => (v === majority ? [] : [i]));
}

export function callDifferences(columns: ColumnCall[][]): Difference[] {
  const differences: Difference[] = [];
  const longest = Math.max(0, ...columns.map((c) => c.length));
  for (let position = 0; position < longest; position++) {
    const calls = columns.map((c) => c[position] ?? null);
    const made = calls.flatMap((call, i) => (call ? [i] : []));
    const missing = calls.flatMap((call, i) => (call ? [] : [i]));
    const tools = [...new Set(made.map((i) => calls[i]!.tool))];
    if (tools.length > 1) {
      // Which columns stand out: those without a call, and those whose tool is not the common one.
      const names = made.map((i) => calls[i]!.tool);
      const odd = outliers(names).map((k) => made[k]!);
      differences.push({ kind: "different-tool", position, tools: calls.map((c) => c?.tool ?? null), columns: [...missing, ...odd].sort((a, b) => a - b) });
      continue;
    }
    if (missing.length) differences.push({ kind: "missed-call", position, tool: tools[0]!, columns: missing });
    if (made.length > 1) {
      const args = made.map((i) => calls[i]!.args);
      if (new Set(args).size > 1)
        differences.push({
          kind: "different-arguments",
          position,
          tool: tools[0]!,
          args: calls.map((c) => c?.args ?? null),
          columns: outliers(args).map((k) => made[k]!),
        });
    }
  }
  return differences;
}
