import "server-only";
import type { RawExchange, StepOutcome, StoredTraceStep, TraceStepData, TraceToolCall } from "@/lib/trace/types";
import { db } from "./client";

const wholeMs = (ms: number | undefined) => (ms === undefined ? undefined : Math.round(ms));

/**
 * A step's columns besides its chat. The timings are Int columns and the AI SDK measures fractions
 * of a millisecond: rounded here, as the page shows them. (A fraction in an Int field also kept
 * Prisma from reusing the query's compiled plan: every write was compiled anew.)
 */
export function traceStepColumns({ toolCalls, rawJson, startedAt, ttftMs, modelMs, durationMs, ...step }: StoredTraceStep) {
  return {
    ...step,
    ttftMs: wholeMs(ttftMs),
    modelMs: wholeMs(modelMs),
    durationMs: wholeMs(durationMs),
    startedAt: new Date(startedAt),
    toolCalls: JSON.stringify(toolCalls),
    raw: rawJson,
  };
}

/** Stores these steps of a chat's turns, each replacing its own earlier save (one turn's step is its turnId and stepNumber). */
export async function saveTraceSteps(chatId: string, steps: readonly StoredTraceStep[]): Promise<void> {
  if (steps.length === 0) return;
  await db().$transaction([
    db().traceStep.deleteMany({ where: { chatId, OR: steps.map(({ turnId, stepNumber }) => ({ turnId, stepNumber })) } }),
    db().traceStep.createMany({ data: steps.map((step) => ({ chatId, ...traceStepColumns(step) })) }),
  ]);
}

/** A chat's steps in the order they ran. */
export async function listTraceSteps(chatId: string): Promise<TraceStepData[]> {
  const rows = await db().traceStep.findMany({ where: { chatId }, orderBy: [{ startedAt: "asc" }, { stepNumber: "asc" }] });
  return rows.map((row) => {
    const step: TraceStepData = {
      turnId: row.turnId,
      messageId: row.messageId,
      stepNumber: row.stepNumber,
      model: row.model,
      toolMode: row.toolMode === "text" ? "text" : "native",
      startedAt: row.startedAt.toISOString(),
      retries: row.retries,
      toolCalls: JSON.parse(row.toolCalls) as TraceToolCall[],
      raw: JSON.parse(row.raw) as RawExchange,
    };
    const optional = {
      answeredBy: row.answeredBy,
      protocol: row.protocol,
      ttftMs: row.ttftMs,
      modelMs: row.modelMs,
      durationMs: row.durationMs,
      finishReason: row.finishReason,
      inputTokens: row.inputTokens,
      outputTokens: row.outputTokens,
      cachedTokens: row.cachedTokens,
      error: row.error,
      outcome: row.outcome as StepOutcome | null,
    };
    for (const [key, value] of Object.entries(optional)) if (value !== null) Object.assign(step, { [key]: value });
    return step;
  });
}

export const CRASHED_STEP_TEXT = "interrupted: the server stopped during this step (closed when it started again)";

/**
 * Steps a dead server process left open (saved while their answer streamed): closed as
 * interrupted. `chatId`: one chat with no live turn here; none: every chat (at start-up).
 */
export async function closeOpenTraceSteps(chatId?: string): Promise<number> {
  const { count } = await db().traceStep.updateMany({
    where: { outcome: null, ...(chatId ? { chatId } : {}) },
    data: { outcome: "interrupted", error: CRASHED_STEP_TEXT },
  });
  return count;
}
