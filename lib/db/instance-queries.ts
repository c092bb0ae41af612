import "server-only";
import { db } from "./client";

export async function registerInstance(data: { id: string; kind: string; host: string; pid: number; slots: number; at: Date }): Promise<void> {
  const { at, ...row } = data;
  await db().instance.create({ data: { ...row, startedAt: at, heartbeatAt: at } });
}

/** False when the row is gone: another instance took this one for dead and closed its turns. */
export async function heartbeatInstance(id: string, at: Date): Promise<boolean> {
  return (await db().instance.updateMany({ where: { id }, data: { heartbeatAt: at } })).count === 1;
}

/** Instances whose last heartbeat is before `cutoff`. */
export async function staleInstances(cutoff: Date): Promise<string[]> {
  return (await db().instance.findMany({ where: { heartbeatAt: { lt: cutoff } }, select: { id: true } })).map((row) => row.id);
}

/**
 * Takes a dead instance's recovery exactly once across live instances: the conditional delete is
 * the lock (a heartbeat that arrived meanwhile keeps the row, and the instance its turns).
 */
export async function claimDeadInstance(id: string, cutoff: Date): Promise<boolean> {
  return (await db().instance.deleteMany({ where: { id, heartbeatAt: { lt: cutoff } } })).count === 1;
}

/** The instance running a turn of the chat, if its lease is live; null when none or a dead one. */
export async function liveTurnInstance(chatId: string, cutoff: Date): Promise<string | null> {
  const chat = await db().chat.findUnique({ where: { id: chatId }, select: { runningOn: true } });
  if (!chat?.runningOn) return null;
  const owner = await db().instance.findUnique({ where: { id: chat.runningOn }, select: { heartbeatAt: true } });
  return owner && owner.heartbeatAt >= cutoff ? chat.runningOn : null;
}

export async function markTurnRunning(chatId: string, instanceId: string): Promise<void> {
  await db().chat.updateMany({ where: { id: chatId }, data: { runningOn: instanceId } });
}

/** Clears the mark if this instance still holds it (a later turn elsewhere keeps its own). */
export async function markTurnEnded(chatId: string, instanceId: string): Promise<void> {
  await db().chat.updateMany({ where: { id: chatId, runningOn: instanceId }, data: { runningOn: null } });
}

/** Chats whose turn ran on one of `instances` (dead ones), or on an instance no longer registered. */
export async function chatsRunningOnDeadInstances(instances: string[]): Promise<string[]> {
  const live = (await db().instance.findMany({ select: { id: true } })).map((row) => row.id);
  const rows = await db().chat.findMany({
    where: { runningOn: { not: null }, OR: [{ runningOn: { in: instances } }, { runningOn: { notIn: live } }] },
    select: { id: true },
  });
  return rows.map((row) => row.id);
}

export async function clearTurnMarks(chatIds: string[]): Promise<void> {
  await db().chat.updateMany({ where: { id: { in: chatIds } }, data: { runningOn: null } });
}

/** The live instances of one kind and the trial slots they offer (the Evals page's "workers connected"). */
export async function liveInstancesOf(kind: string, cutoff: Date): Promise<{ count: number; slots: number }> {
  const rows = await db().instance.aggregate({ where: { kind, heartbeatAt: { gte: cutoff } }, _count: { _all: true }, _sum: { slots: true } });
  return { count: rows._count._all, slots: rows._sum.slots ?? 0 };
}
