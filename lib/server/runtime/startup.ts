import { getLoadedSettings, getSettings } from "@/lib/settings";
import { recoverAfterCrash, recoverChats } from "@/lib/server/chat/crash-recovery";
import { sharedStore, startInstanceLease } from "@/lib/server/team/instance-lease";
import { startInProcessTrials } from "@/lib/server/evals/queued-evals";
import { getRegistry } from "./registry";
import { startApprovalSweeper } from "@/lib/server/approvals/sweeper";
import { startServerLiveReload } from "./server-reload";

/** A bad settings file or a registry collision stops the server instead of failing its first request. */
export async function startup(): Promise<void> {
  try {
    for (const notice of getLoadedSettings().notices) console.error(`toolroom: ${notice}`);
    startApprovalSweeper();
  } catch (error) {
    cannotStart(error);
  }
  // The registry loads while requests are served (pages say "loading tools…"): a plugin import that
  // takes long must not hold every request. It logs each skipped entry itself, with its stack; a
  // collision still stops the server. Then plugins and settings are watched for changes.
  void getRegistry()
    .then(() => startServerLiveReload())
    .catch(cannotStart);
  await closeWhatACrashLeftOpen();
}

function cannotStart(error: unknown): never {
  console.error(`toolroom: cannot start. ${(error as Error).message}`);
  process.exit(2);
}

/**
 * Calls a previous server process was running when it died get their error result before any
 * request is served. Not fatal: each turn repeats the check for its own chat.
 */
async function closeWhatACrashLeftOpen(): Promise<void> {
  try {
    const { chats, calls, steps } = await recoverAfterCrash();
    if (calls > 0) console.log(`toolroom: closed ${calls} tool call(s) in ${chats} chat(s) that the last server process left running.`);
    if (steps > 0) console.log(`toolroom: closed ${steps} trace step(s) the last server process left open, as interrupted.`);
  } catch (error) {
    console.error(`toolroom: could not close the tool calls a previous run left open: ${(error as Error).message}`);
  }
  // On PostgreSQL, beside other instances: heartbeat, and close the turns of any that dies; and take
  // eval trials from the queue with this instance's own slots (workers.inProcess).
  if (!sharedStore()) return;
  const settings = getSettings();
  await startInstanceLease("web", recoverChats, settings.workers.inProcess);
  try {
    await startInProcessTrials(settings);
  } catch (error) {
    console.error(`toolroom: could not start taking eval trials from the job queue: ${(error as Error).message}`);
  }
}
