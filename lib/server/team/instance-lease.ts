import "server-only";
import { randomBytes } from "node:crypto";
import os from "node:os";
import {
  chatsRunningOnDeadInstances,
  claimDeadInstance,
  clearTurnMarks,
  heartbeatInstance,
  liveTurnInstance,
  markTurnEnded,
  markTurnRunning,
  registerInstance,
  staleInstances,
} from "@/lib/db/instance-queries";
import { interruptEvalRunsOn } from "@/lib/db/eval-queries";
import { databaseKind, databaseUrl } from "@/lib/db/url";

/** How often a live instance says so. */
const HEARTBEAT_MS = 10_000;
/** An instance silent this long is dead: its turns are closed by whichever live instance sweeps first (≤ 40 s after its last heartbeat). */
export const LEASE_MS = 30_000;

interface Lease {
  id: string;
  timer?: NodeJS.Timeout;
  /** Writes of one chat's turn mark, in order: an end never lands before its start. */
  marks: Map<string, Promise<void>>;
}

const cache = globalThis as unknown as { __toolroomLease?: Lease };
const lease: Lease = (cache.__toolroomLease ??= { id: `${os.hostname()}-${process.pid}-${randomBytes(4).toString("hex")}`, marks: new Map() });

/**
 * Several instances share the store only on PostgreSQL; the embedded SQLite file has one server,
 * and its start-up closes whatever the last one left open, as before.
 */
export function sharedStore(): boolean {
  return databaseKind(databaseUrl()) === "postgresql";
}

/** This instance's id where runs and turns are marked with it (a shared store), else null. */
export function sharedInstanceId(): string | null {
  return sharedStore() ? lease.id : null;
}

export const leaseCutoff = (now: Date) => new Date(now.getTime() - LEASE_MS);

/**
 * Registers this process, heartbeats, and closes dead instances' turns; a no-op on SQLite. `slots`:
 * the eval trials it takes at once (what the Evals page counts as connected workers).
 */
export async function startInstanceLease(kind: "web" | "worker", onRecovered: (chatIds: string[]) => Promise<number>, slots = 0): Promise<void> {
  if (!sharedStore() || lease.timer) return;
  const beat = async () => {
    const now = new Date();
    // Not registered yet (the database was down at start), or taken for dead after a long pause
    // (its turns were closed): from now on it is registered anew.
    if (!(await heartbeatInstance(lease.id, now))) await registerInstance({ id: lease.id, kind, host: os.hostname(), pid: process.pid, slots, at: now });
    await sweepDeadInstances(now, onRecovered);
  };
  const beatLogged = () => beat().catch((error: unknown) => console.error(`toolroom: instance heartbeat failed: ${(error as Error).message}`));
  lease.timer = setInterval(() => void beatLogged(), HEARTBEAT_MS);
  lease.timer.unref();
  await beatLogged();
}

/** The instances whose lease ran out, each recovered by exactly one live instance. Returns the chats closed. */
export async function sweepDeadInstances(now: Date, onRecovered: (chatIds: string[]) => Promise<number>): Promise<number> {
  const cutoff = leaseCutoff(now);
  let closed = 0;
  for (const id of await staleInstances(cutoff)) {
    if (id === lease.id || !(await claimDeadInstance(id, cutoff))) continue;
    const chats = await chatsRunningOnDeadInstances([id]);
    const calls = chats.length ? await onRecovered(chats) : 0;
    await clearTurnMarks(chats);
    const evals = await interruptEvalRunsOn([id]);
    if (evals > 0) console.log(`toolroom: ${evals} eval run(s) of instance ${id} interrupted; resume them from the Evals page.`);
    if (calls > 0) console.log(`toolroom: closed ${calls} tool call(s) in ${chats.length} chat(s) that instance ${id} left running when it stopped answering.`);
    closed += chats.length;
  }
  return closed;
}

/** On a shared store: whether a turn of the chat runs on another instance whose lease is live. */
export async function turnRunsElsewhere(chatId: string, now = new Date()): Promise<boolean> {
  if (!sharedStore()) return false;
  const owner = await liveTurnInstance(chatId, leaseCutoff(now));
  return owner !== null && owner !== lease.id;
}

/** Marks (or clears) in the store that this instance runs a turn of the chat. */
export function markTurn(chatId: string, running: boolean): void {
  if (!sharedStore()) return;
  const previous = lease.marks.get(chatId) ?? Promise.resolve();
  const next = previous
    .then(() => (running ? markTurnRunning(chatId, lease.id) : markTurnEnded(chatId, lease.id)))
    .catch((error: unknown) => console.error(`toolroom: could not mark the turn of chat ${chatId}: ${(error as Error).message}`));
  lease.marks.set(chatId, next);
  void next.finally(() => {
    if (lease.marks.get(chatId) === next) lease.marks.delete(chatId);
  });
}
