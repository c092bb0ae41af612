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
export async function saveEvalTrialChat(runId: string, { chat, messages, traceSteps, trial }: EvalTrialChat): Promise<void> {
  const { verdict, record, ...key } = trial;
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
    db().evalTrial.upsert({
      where: { runId_cell_caseName_trial: { runId, ...key } },
      create: { runId, ...key, verdict, record },
      update: { verdict, record },
      select: { runId: true },
    }),
  ]);
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
