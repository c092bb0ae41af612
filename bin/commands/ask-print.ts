import type { UIMessageChunk } from "ai";
import { describeNotAdmitted } from "@/lib/tools/confirm";
import { isErrorText } from "@/lib/tools/output";

const RESULT_CHARS = 200;

export interface StreamPrinter {
  chunk(chunk: UIMessageChunk): void;
  /** Why a call the person answered did not run, for its `←` line. */
  declined(toolCallId: string, why: string): void;
  /** Ends the answer on a line of its own. */
  end(): void;
}

/**
 * The answer's text on `out` as it streams, so it can be piped; each tool call and its result as
 * one line each on `err`, between the paragraphs they interrupt.
 */
export function streamPrinter(out: NodeJS.WritableStream, err: NodeJS.WritableStream): StreamPrinter {
  const names = new Map<string, string>();
  const declined = new Map<string, string>();
  let lineOpen = false;

  const closeLine = () => {
    if (lineOpen) out.write("\n");
    lineOpen = false;
  };
  const note = (line: string) => {
    closeLine();
    err.write(`${line}\n`);
  };

  return {
    chunk(chunk) {
      switch (chunk.type) {
        case "text-delta":
          out.write(chunk.delta);
          if (chunk.delta) lineOpen = !chunk.delta.endsWith("\n");
          return;
        case "start-step":
          return closeLine();
        case "tool-input-available":
          names.set(chunk.toolCallId, chunk.toolName);
          return note(`→ ${chunk.toolName} ${JSON.stringify(chunk.input ?? {})}`);
        case "tool-input-error":
          note(`→ ${chunk.toolName} ${JSON.stringify(chunk.input ?? {})}`);
          return note(`← ${resultSummary(chunk.errorText)}`);
        case "tool-output-available":
          if (!chunk.preliminary) note(`← ${resultSummary(chunk.output)}`);
          return;
        case "tool-output-error":
          return note(`← ${resultSummary(chunk.errorText)}`);
        case "tool-output-denied":
          // The engine refuses on its own only in an unsupervised chat; every other refusal was the person's.
          return note(
            `← ${names.get(chunk.toolCallId) ?? "the call"} was not run: ${declined.get(chunk.toolCallId) ?? describeNotAdmitted({ kind: "unsupervised" })}`,
          );
        default:
          return;
      }
    },
    declined(toolCallId, why) {
      declined.set(toolCallId, why);
    },
    end: closeLine,
  };
}

/** A result in one line: its line count when it has several, else the text; an error keeps its first line. */
function resultSummary(output: unknown): string {
  const text = (typeof output === "string" ? output : (JSON.stringify(output) ?? "")).trimEnd();
  if (!text) return "(empty)";
  const [first = "", ...rest] = text.split("\n");
  if (rest.length && !isErrorText(text)) return `${rest.length + 1} lines`;
  const cut = first.length > RESULT_CHARS ? `${first.slice(0, RESULT_CHARS)}…` : first;
  return rest.length ? `${cut} (+${rest.length} lines)` : cut;
}
