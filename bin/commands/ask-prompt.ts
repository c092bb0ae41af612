import readline from "node:readline/promises";
import type { Decision } from "@/lib/chat/metadata";
import type { PendingCall } from "./ask-turn";

export interface PromptOptions {
  /** Seconds before an unanswered prompt counts as timed out, as an approval in the browser does. */
  timeoutSeconds: number;
  /** The turn's signal: Ctrl-C elsewhere ends the prompt too. */
  signal: AbortSignal;
  /** Ctrl-C at the prompt reaches readline rather than the process; it stops the turn all the same. */
  onInterrupt(): void;
}

/** `y/N` on the terminal (stderr, so stdout keeps only the answer) for one call that needs a person. */
export async function promptApproval(call: PendingCall, options: PromptOptions): Promise<Decision> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  rl.on("SIGINT", () => options.onInterrupt());
  const timeout = AbortSignal.timeout(options.timeoutSeconds * 1000);
  try {
    process.stderr.write(`${call.toolName} [${call.sourcePackage}] needs your approval.\nArguments: ${JSON.stringify(call.input ?? {}, null, 2)}\n`);
    const answer = (await rl.question("Run it? [y/N] ", { signal: AbortSignal.any([options.signal, timeout]) })).trim().toLowerCase();
    const at = new Date().toISOString();
    return answer === "y" || answer === "yes" ? { by: "user", decision: "approved", at } : { by: "user", decision: "denied", at };
  } catch (error) {
    if (!timeout.aborted || options.signal.aborted) throw error;
    process.stderr.write(`\nNo answer in ${options.timeoutSeconds}s: not run.\n`);
    return { by: "timeout", decision: "timed-out", at: new Date().toISOString() };
  } finally {
    rl.close();
  }
}
