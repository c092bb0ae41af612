import "server-only";
import { db } from "./client";

export interface CollectionRunRow {
  id: string;
  collectionKey: string;
  collection: string;
  vars: string;
  state: string;
  startedAt: Date;
  finishedAt: Date | null;
  total: number;
  done: number;
  passed: number;
  failed: number;
  results: string;
}

export async function createCollectionRun(row: Omit<CollectionRunRow, "done" | "passed" | "failed" | "results" | "finishedAt">): Promise<void> {
  await db().collectionRun.create({ data: row });
}

export async function getCollectionRun(id: string): Promise<CollectionRunRow | null> {
  return db().collectionRun.findUnique({ where: { id } });
}

/**
 * Stores the run's next finished call: only while `done` is still what the step read, so two
 * answers to the same step cannot both be stored. False when another got there first.
 */
export async function storeCollectionStep(
  id: string,
  readDone: number,
  data: Pick<CollectionRunRow, "done" | "passed" | "failed" | "results" | "state" | "finishedAt">,
): Promise<boolean> {
  const { count } = await db().collectionRun.updateMany({ where: { id, done: readDone, state: "running" }, data });
  return count === 1;
}

/** Ends a run that is still going (the page's Stop); false when it had already ended. */
export async function cancelCollectionRun(id: string, at: Date): Promise<boolean> {
  const { count } = await db().collectionRun.updateMany({ where: { id, state: "running" }, data: { state: "cancelled", finishedAt: at } });
  return count === 1;
}

/** Each collection's latest runs, newest first: the page's history and "since the last run". */
export async function listCollectionRuns(collectionKey: string, limit: number): Promise<CollectionRunRow[]> {
  return db().collectionRun.findMany({ where: { collectionKey }, orderBy: { startedAt: "desc" }, take: limit });
}
