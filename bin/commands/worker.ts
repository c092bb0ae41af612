import os from "node:os";
import type { Command } from "commander";
import { databaseKind, databaseUrl } from "@/lib/db/url";
import { recoverChats } from "@/lib/server/chat/crash-recovery";
import { runQueuedTrial } from "@/lib/server/evals/queued-evals";
import { stopTrialWork, workTrials } from "@/lib/server/jobs/trial-queue";
import { startInstanceLease } from "@/lib/server/team/instance-lease";
import { sourceRootOf } from "@/lib/settings";
import { CliExit, cliSettings } from "../context";

/**
 * `toolroom worker`: takes eval trials from the team's queue until stopped, with this machine's
 * settings and plugins (as the CLI's other commands). SIGTERM, or a first Ctrl-C: no new trial is
 * taken, the running ones finish. A second Ctrl-C stops them too; pg-boss gives them to another
 * worker once their heartbeat lapses.
 */
export function registerWorker(program: Command): void {
  program
    .command("worker")
    .description("take eval trials from the team's job queue (PostgreSQL) until stopped; start any number, on any machine")
    .option("--concurrency <n>", "trials run at once", "4")
    .action(async (options: { concurrency: string }) => {
      const { settings } = cliSettings(program.opts<{ config?: string }>().config);
      const slots = Number(options.concurrency);
      if (!Number.isInteger(slots) || slots < 1 || slots > 32)
        throw new CliExit(2, `toolroom: --concurrency must be a whole number from 1 to 32 (got ${options.concurrency}).`);
      if (databaseKind(databaseUrl()) !== "postgresql")
        throw new CliExit(
          2,
          "toolroom: a worker takes trials from a team's PostgreSQL store (DATABASE_URL=postgresql://… or database.url); on the embedded SQLite store evals run inside `npm start`'s process.",
        );
      const stopped = new Promise<number>((resolve) => {
        let asked = 0;
        const stop = (signal: NodeJS.Signals) => {
          asked++;
          if (signal === "SIGINT" && asked > 1) {
            process.stderr.write("toolroom worker: stopping the running trials; another worker takes them once their heartbeat lapses.\n");
            void stopTrialWork(false).finally(() => resolve(130));
            return;
          }
          if (asked > 1) return;
          process.stderr.write(
            `toolroom worker: ${signal}: taking no new trials; the running ones finish${signal === "SIGINT" ? " (Ctrl-C again to stop them)" : ""}.\n`,
          );
          void stopTrialWork(true).then(
            () => resolve(signal === "SIGINT" ? 130 : 0),
            () => resolve(1),
          );
        };
        process.on("SIGTERM", stop);
        process.on("SIGINT", stop);
      });
      await startInstanceLease("worker", recoverChats, slots);
      try {
        await workTrials(slots, runQueuedTrial);
      } catch (error) {
        throw new CliExit(1, `toolroom worker: cannot reach the job queue: ${(error as Error).message}`);
      }
      console.error(
        `toolroom worker: taking eval trials, ${slots} at a time, on ${os.hostname()} (pid ${process.pid}); source root ${sourceRootOf(settings)}.`,
      );
      throw new CliExit(await stopped);
    });
}
