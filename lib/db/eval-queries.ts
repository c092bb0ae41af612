import "server-only";
import type { UIMessage } from "ai";
import type { StoredTraceStep } from "@/lib/trace/types";
import { db } from "./client";
import { messageColumns, type NewChat } from "./queries";
import { traceStepColumns } from "./trace-queries";

export interface EvalRunRow {
  id: string;
  suiteKey: string;
  suite: string;
  label: string;
  choice: string;
  state: string;
  startedAt: Date;
  finishedAt: Date | null;
  total: number;
  runRel: string | null;
  partial: boolean;
  cells: string | null;
  error: string | null;
  runningOn?: string | null;
  queued?: boolean;
  suiteFile?: string | null;
  suiteText?: string | null;
  trusted?: boolean;
  /** The user who started it (its trial chats are theirs); null: no sign-in, or the command line. */
  startedBy?: string | null;
}

/** A stored run with its trial counts by verdict. */
export interface EvalRunWithCounts extends EvalRunRow {
  counts: { pass: number; fail: number; error: number };
}

export async function createEvalRun(row: EvalRunRow): Promise<void> {
  await db().evalRun.create({ data: row });
}

export async function updateEvalRun(id: string, data: Partial<Omit<EvalRunRow, "id">>): Promise<void> {
  await db().evalRun.update({ where: { id }, data });
}

/** One finished trial of a run: its chat (an eval chat, new), the chat's messages and trace, and its trial row. */
interface EvalTrialChat {
  chat: Omit<NewChat, "origin">;
  messages: readonly UIMessage[];
  traceSteps: readonly StoredTraceStep[];
  trial: { cell: string; caseName: string; trial: number; verdict: string; record: string };
}

/**
 * Stores one trial in one commit: its chat with the messages and trace nested (an eval chat is new:
 * nothing to replace) and its trial row, so a crash or a failing row leaves all of it or none. The
 * row is what a resumed run counts as done; stored apart (five commits a trial, as before), a chat
 * could outlive a row that never came, and its trial ran again under another chat.
 */
export async function saveEvalTrialChat(runId: string, { chat, messages, traceSteps, trial }: EvalTrialChat): Promise<boolean> {
  const { verdict, record, ...key } = trial;
  try {
    await db().$transaction([
      db().chat.create({
        data: {
          ...chat,
          origin: "eval",
          messages: { createMany: { data: messages.map((message, position) => ({ id: message.id, position, ...messageColumns(message) })) } },
          traceSteps: { createMany: { data: traceSteps.map(traceStepColumns) } },
        },
        select: { id: true },
      }),
      // Created, never overwritten: a job's second attempt at a trial its first attempt stored
      // (the worker died before the engine heard) fails here, and its chat goes with it.
      db().evalTrial.create({ data: { runId, ...key, verdict, record }, select: { runId: true } }),
    ]);
    return true;
  } catch (error) {
    // Only the trial row's own key means "stored already"; any other clash is an error to report.
    const known = error as { code?: unknown; meta?: { modelName?: unknown } };
    if (known.code === "P2002" && known.meta?.modelName === "EvalTrial") return false;
    throw error;
  }
}

/** How many trials of the run are stored. */
export async function countEvalTrials(runId: string): Promise<number> {
  return db().evalTrial.count({ where: { runId } });
}

/** The keys of the run's stored trials (what a resumed queued run does not queue again). */
export async function storedTrialKeys(runId: string): Promise<{ cell: string; caseName: string; trial: number }[]> {
  return db().evalTrial.findMany({ where: { runId }, select: { cell: true, caseName: true, trial: true } });
}

/** Moves a running run to its end state exactly once, whichever process sees it first; false when another did. */
export async function endEvalRunOnce(id: string, data: Partial<Omit<EvalRunRow, "id">> & { state: string }): Promise<boolean> {
  return (await db().evalRun.updateMany({ where: { id, state: "running" }, data })).count === 1;
}

/**
 * Claims the end of a running run for one process (of however many stored its last trials at once):
 * it sets finishedAt while the state stays running, so that the run reads done only once its folder
 * is written and named.
 */
export async function claimEvalRunEnd(id: string, finishedAt: Date): Promise<boolean> {
  return (await db().evalRun.updateMany({ where: { id, state: "running", finishedAt: null }, data: { finishedAt } })).count === 1;
}

/** The latest runs, newest first, with how many of their trials passed, failed or erred. */
export async function listEvalRuns(limit: number): Promise<EvalRunWithCounts[]> {
  const rows = await db().evalRun.findMany({ orderBy: { startedAt: "desc" }, take: limit });
  const grouped = await db().evalTrial.groupBy({ by: ["runId", "verdict"], where: { runId: { in: rows.map((r) => r.id) } }, _count: { _all: true } });
  return rows.map((row) => {
    const counts = { pass: 0, fail: 0, error: 0 };
    for (const g of grouped) if (g.runId === row.id && g.verdict in counts) counts[g.verdict as keyof typeof counts] = g._count._all;
    return { ...row, counts };
  });
}

export async function getEvalRun(id: string): Promise<EvalRunRow | null> {
  return db().evalRun.findUnique({ where: { id } });
}

/** The JSON records of a run's finished trials. */
export async function loadEvalTrials(runId: string): Promise<string[]> {
  return (await db().evalTrial.findMany({ where: { runId }, select: { record: true } })).map((t) => t.record);
}

/** Runs left `running` by a process that is gone become `interrupted`; returns how many. */
/** Sets an interrupted or cancelled run running again, exactly once: the conditional update is the lock. */
export async function resumeEvalRunOnce(id: string, data: Partial<Omit<EvalRunRow, "id">>): Promise<boolean> {
  return (await db().evalRun.updateMany({ where: { id, state: { in: ["interrupted", "cancelled"] } }, data })).count === 1;
}

/** A dead instance's running evals (its lease ran out): interrupted, to be opened or resumed. */
export async function interruptEvalRunsOn(instances: readonly string[]): Promise<number> {
  return (await db().evalRun.updateMany({ where: { state: "running", runningOn: { in: [...instances] } }, data: { state: "interrupted" } })).count;
}

export async function interruptEvalRuns(except: readonly string[]): Promise<number> {
  return (await db().evalRun.updateMany({ where: { state: "running", id: { notIn: [...except] } }, data: { state: "interrupted" } })).count;
}
