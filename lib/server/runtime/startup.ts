import { getSettings } from "@/lib/settings";
import { recoverAfterCrash } from "@/lib/server/chat/crash-recovery";
import { getRegistry } from "./registry";
import { startApprovalSweeper } from "@/lib/server/approvals/sweeper";
import { startServerLiveReload } from "./server-reload";

/** A bad settings file or a registry collision stops the server instead of failing its first request. */
export async function startup(): Promise<void> {
  try {
    getSettings();
    // The registry logs each skipped plugin entry itself, with its stack.
    await getRegistry();
    startApprovalSweeper();
    // Plugins installed or edited and settings changed are picked up without a restart.
    await startServerLiveReload();
  } catch (error) {
    console.error(`toolroom: cannot start. ${(error as Error).message}`);
    process.exit(2);
  }
  await closeWhatACrashLeftOpen();
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
}
