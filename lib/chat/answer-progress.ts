import type { UIMessage, UIMessageChunk } from "ai";

type Part = UIMessage["parts"][number];
type StreamedPart = Extract<Part, { type: "text" | "reasoning" }>;

/** Save progress at least this often while text streams… */
export const PROGRESS_INTERVAL_MS = 1000;
/** …and as soon as this much text came since the last save. */
export const PROGRESS_BYTES = 4096;

/**
 * The answer as the person has seen it so far, kept cheaply beside the stream: the message as of
 * the last finished step (the SDK hands it over at each step's end) plus the current step's text
 * and reasoning, appended to in place. Tool parts of the running step appear with the step's end;
 * their calls are recorded on their own as they run.
 */
export class AnswerProgress {
  private base: UIMessage;
  private stepParts: Part[] = [];
  private open = new Map<string, StreamedPart>();
  /** Messages of steps the SDK finished whose `finish-step` chunk has not been seen yet. */
  private finishedSteps: UIMessage[] = [];
  private metadata: unknown;
  /** Characters of text since the last snapshot. */
  pending = 0;

  constructor(continuing: UIMessage | undefined) {
    this.base = continuing ?? { id: "", role: "assistant", parts: [] };
    this.metadata = continuing?.metadata;
  }

  /** Called by the SDK's step end, which runs before that step's `finish-step` chunk passes. */
  stepEnded(message: UIMessage): void {
    this.finishedSteps.push(message);
  }

  /** Follows one chunk; true when the visible answer changed. */
  add(chunk: UIMessageChunk): boolean {
    switch (chunk.type) {
      case "text-delta":
      case "reasoning-delta": {
        const part = this.open.get(chunk.id);
        if (!part) return false;
        part.text += chunk.delta;
        this.pending += chunk.delta.length;
        return true;
      }
      case "text-start":
      case "reasoning-start": {
        const part = { type: chunk.type === "text-start" ? "text" : "reasoning", text: "", state: "streaming" } as StreamedPart;
        this.open.set(chunk.id, part);
        this.stepParts.push(part);
        return false;
      }
      case "start-step":
        this.stepParts.push({ type: "step-start" });
        return false;
      case "finish-step": {
        const finished = this.finishedSteps.shift();
        if (finished) this.base = finished;
        this.stepParts = [];
        this.open.clear();
        return false;
      }
      case "start":
        if (chunk.messageId) this.base = { ...this.base, id: chunk.messageId };
        if (chunk.messageMetadata !== undefined) this.metadata = chunk.messageMetadata;
        return false;
      case "message-metadata":
        this.metadata = chunk.messageMetadata;
        return false;
      default:
        return false;
    }
  }

  /** A copy of the answer so far, safe to store while streaming goes on. */
  snapshot(): UIMessage {
    this.pending = 0;
    const parts = [...this.base.parts, ...this.stepParts.map((part) => ({ ...part }))];
    return { ...this.base, parts, ...(this.metadata === undefined ? {} : { metadata: this.metadata }) };
  }
}
