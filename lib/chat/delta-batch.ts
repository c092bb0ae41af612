import type { LanguageModelV4Middleware, LanguageModelV4StreamPart } from "@ai-sdk/provider";

/** Consecutive deltas of one text or reasoning part are sent on together at most this long after the first of them… */
export const BATCH_INTERVAL_MS = 30;
/** …or as soon as they hold this many characters. */
export const BATCH_CHARS = 4096;
/** Parts read from the provider between two yields to the event loop. */
export const YIELD_EVERY = 16;

type Delta = Extract<LanguageModelV4StreamPart, { type: "text-delta" | "reasoning-delta" }>;

const isDelta = (part: LanguageModelV4StreamPart): part is Delta => part.type === "text-delta" || part.type === "reasoning-delta";

/**
 * Joins the provider's consecutive text and reasoning deltas before they enter the SDK's stream
 * chain. A fast model sends hundreds of one-token deltas a second, and each crossed streamText,
 * the UI message stream, the turn's pump and the SSE response one at a time on the main thread:
 * 30 such streams left page requests waiting for seconds (#29.1). Batched, a part costs the chain
 * once per batch, and the timer between batches gives other requests their turn.
 *
 * The first delta of a call goes on at once (the time to the first token does not grow); any
 * other part, the stream's end and a full batch send what is held first, so order is kept. Deltas
 * carrying provider metadata (a reasoning signature) are never merged.
 *
 * Reading a backlog (a socket read of many events, the start-up burst of many turns) is a chain of
 * promise callbacks that never leaves the microtask queue: 30 streams catching up kept every page
 * request waiting for seconds. Every YIELD_EVERY parts the reader waits for the event loop's next
 * turn (setImmediate), so accepted requests, timers and sockets get theirs.
 */
export function batchDeltas(
  source: ReadableStream<LanguageModelV4StreamPart>,
  { intervalMs = BATCH_INTERVAL_MS, maxChars = BATCH_CHARS }: { intervalMs?: number; maxChars?: number } = {},
): ReadableStream<LanguageModelV4StreamPart> {
  const reader = source.getReader();
  let held: Delta | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let sentFirst = false;
  /** Parts sent so far. */
  let sent = 0;
  let readSinceYield = 0;
  let closed = false;
  let out!: ReadableStreamDefaultController<LanguageModelV4StreamPart>;

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (held && !closed) send(held);
    held = undefined;
  };
  const hold = (delta: Delta) => {
    if (held && held.type === delta.type && held.id === delta.id && !held.providerMetadata && !delta.providerMetadata) {
      held = { ...held, delta: held.delta + delta.delta };
    } else {
      flush();
      held = { ...delta };
    }
    if (held.delta.length >= maxChars) flush();
    else timer ??= setTimeout(flush, intervalMs);
  };

  const send = (part: LanguageModelV4StreamPart) => {
    sent++;
    out.enqueue(part);
  };
  /** Reads one part of the source; false once it ended. */
  const step = async (): Promise<boolean> => {
    let next;
    try {
      next = await reader.read();
    } catch (error) {
      flush();
      closed = true;
      out.error(error);
      return false;
    }
    if (closed) return false;
    if (next.done) {
      flush();
      closed = true;
      out.close();
      return false;
    }
    const part = next.value;
    if (!isDelta(part)) {
      flush();
      send(part);
    } else if (!sentFirst && !held) {
      sentFirst = true;
      send(part);
    } else hold(part);
    return true;
  };

  return new ReadableStream<LanguageModelV4StreamPart>({
    start: (controller) => {
      out = controller;
    },
    // The stream calls pull again only after a pull that sent something: read on until one did
    // (a full batch, another part, or the timer's flush meanwhile).
    async pull() {
      const before = sent;
      while (sent === before) {
        if (++readSinceYield > YIELD_EVERY) {
          readSinceYield = 0;
          await new Promise((resolve) => setImmediate(resolve));
          if (sent !== before) return;
        }
        if (!(await step())) return;
      }
    },
    cancel: (reason) => {
      clearTimeout(timer);
      closed = true;
      held = undefined;
      return reader.cancel(reason);
    },
  });
}

/** `batchDeltas` on every streamed call of a model. */
export const deltaBatchMiddleware: LanguageModelV4Middleware = {
  specificationVersion: "v4",
  wrapStream: async ({ doStream }) => {
    const result = await doStream();
    return { ...result, stream: batchDeltas(result.stream) };
  },
};
