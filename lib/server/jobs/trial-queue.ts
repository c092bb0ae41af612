import "server-only";
import type { JobWithMetadata, PgBoss } from "pg-boss";
import { databaseUrl } from "@/lib/db/url";

/**
 * Eval trials as jobs of pg-boss, on the team's PostgreSQL (its own schema, `pgboss`). Chosen over
 * Graphile Worker: a per-job heartbeat (a killed worker's trial is retried within a bounded time
 * while a slow model's trial runs on), per-queue retry limits, job cancellation, and a queue whose
 * jobs can be looked up by their data (each run's queue depth) — all through its API, no SQL of ours.
 */
export const TRIAL_QUEUE = "toolroom-eval-trial";
export const BOSS_SCHEMA = "pgboss";

/** A trial job names its run and its index in the run's matrix; everything else comes from the run's row. */
export interface TrialJob {
  runId: string;
  index: number;
}

/**
 * A worker that stops answering loses its trial within HEARTBEAT_S + the supervise pass (≤ 30 s):
 * pg-boss retries it elsewhere. A trial's own failure is a result, not a throw; a throw (the
 * database went away) is retried up to RETRY_LIMIT times.
 */
const HEARTBEAT_S = 20;
const SUPERVISE_S = 10;
export const RETRY_LIMIT = 3;

const cache = globalThis as unknown as { __toolroomBoss?: Promise<PgBoss> };

/** This process's pg-boss, started once (installing or migrating its schema under its own lock). */
export function trialBoss(): Promise<PgBoss> {
  return (cache.__toolroomBoss ??= (async () => {
    // Loaded here, not at the top: every CLI command and the SQLite default import this module, and
    // pg-boss with its scheduler's dependencies is a sixth of a CLI start.
    const { PgBoss: Boss } = await import("pg-boss");
    const boss = new Boss({
      connectionString: databaseUrl(),
      schema: BOSS_SCHEMA,
      application_name: "toolroom-jobs",
      max: 4,
      useListenNotify: true,
      superviseIntervalSeconds: SUPERVISE_S,
      monitorIntervalSeconds: SUPERVISE_S,
    });
    boss.on("error", (error: Error) => console.error(`toolroom: job engine: ${error.message}`));
    try {
      await boss.start();
      await boss.createQueue(TRIAL_QUEUE, { heartbeatSeconds: HEARTBEAT_S, retryLimit: RETRY_LIMIT, notify: true, deleteAfterSeconds: 7 * 24 * 3600 });
    } catch (error) {
      cache.__toolroomBoss = undefined;
      throw error;
    }
    return boss;
  })());
}

/** Queues trials `indices` of run `runId`. */
export async function queueTrials(runId: string, indices: readonly number[]): Promise<void> {
  const boss = await trialBoss();
  // In pages: one insert of a whole 5,000-trial run would be one very long statement.
  for (let at = 0; at < indices.length; at += 500)
    await boss.insert(
      TRIAL_QUEUE,
      indices.slice(at, at + 500).map((index) => ({ data: { runId, index } satisfies TrialJob })),
    );
}

/** The run's trials still waiting for a worker (not yet taken, or waiting to be retried). */
export async function queuedTrials(runId: string): Promise<number> {
  const boss = await trialBoss();
  return (await boss.findJobs(TRIAL_QUEUE, { data: { runId }, queued: true, limit: 100_000 })).length;
}

/** Takes the run's queued trials off the queue (cancel): they never start. */
export async function dropQueuedTrials(runId: string): Promise<number> {
  const boss = await trialBoss();
  const ids = (await boss.findJobs(TRIAL_QUEUE, { data: { runId }, queued: true, limit: 100_000 })).map((job) => job.id);
  for (let at = 0; at < ids.length; at += 500) await boss.cancel(TRIAL_QUEUE, ids.slice(at, at + 500));
  return ids.length;
}

export type TrialHandler = (job: TrialJob, attempt: { retryCount: number; retryLimit: number; signal: AbortSignal }) => Promise<void>;

/** Takes trials, `slots` at a time, until `stopTrialWork`. Returns the work's id. */
export async function workTrials(slots: number, handler: TrialHandler): Promise<string> {
  const boss = await trialBoss();
  return boss.work(
    TRIAL_QUEUE,
    // A slot fetches again once `interval − the trial's own time` has passed; NOTIFY wakes it early
    // only for new jobs, not for a backlog. So the interval is pg-boss's least (0.5 s): a trial
    // longer than that is followed at once by the next, and an idle slot asks twice a second.
    { localConcurrency: slots, batchSize: 1, includeMetadata: true, pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 0.5 } as const,
    async (jobs: JobWithMetadata<TrialJob>[]) => {
      for (const job of jobs)
        try {
          await handler(job.data, { retryCount: job.retryCount, retryLimit: job.retryLimit, signal: job.signal });
        } catch (error) {
          // pg-boss keeps the error on the job and retries it; the process's log says so too.
          const left = job.retryLimit - job.retryCount;
          console.error(
            `toolroom: eval trial ${job.data.index + 1} of run ${job.data.runId} failed (${left > 0 ? `retried up to ${left} more time(s)` : "no retries left"}): ${(error as Error).message}`,
          );
          throw error;
        }
    },
  );
}

/**
 * Stops taking trials. graceful: the running ones finish first (SIGTERM); else they are abandoned
 * where they are, and pg-boss retries them once their heartbeat lapses.
 */
export async function stopTrialWork(graceful: boolean): Promise<void> {
  const pending = cache.__toolroomBoss;
  if (!pending) return;
  const boss = await pending.catch(() => null);
  cache.__toolroomBoss = undefined;
  await boss?.stop({ graceful, timeout: graceful ? 24 * 3600 * 1000 : 1000 });
}
