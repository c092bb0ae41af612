import { getSettings } from "@/lib/settings";
import { getRegistry } from "./registry";
import { startApprovalSweeper } from "./sweeper";

/** A bad settings file or a registry collision stops the server instead of failing its first request. */
export async function startup(): Promise<void> {
  try {
    getSettings();
    // The registry logs each skipped plugin entry itself, with its stack.
    await getRegistry();
    startApprovalSweeper();
  } catch (error) {
    console.error(`toolroom: cannot start. ${(error as Error).message}`);
    process.exit(2);
  }
}
