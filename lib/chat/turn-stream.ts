import type { UIMessageChunk } from "ai";

export interface PumpHooks {
  /** Sees every chunk, in order, whether or not anyone still listens. */
  observe(chunk: UIMessageChunk): void;
  /** Chunks to send instead of this one; undefined sends it as it is. */
  rewrite(chunk: UIMessageChunk): UIMessageChunk[] | undefined;
  /** Runs once the source ended, or failed (`failure`); returns chunks to send last. Must not throw. */
  end(failure: { error: unknown } | undefined): Promise<UIMessageChunk[]>;
}

/**
 * Reads a turn's UI message stream to its end on the server — the answer is finished and stored
 * even when the browser goes away — and forwards each chunk while the browser listens. The
 * stream it returns never errors: a failure of the source is handed to `end`, whose chunks (an
 * error for the person) close it normally, after everything already streamed.
 */
export function pumpToEnd(source: ReadableStream<UIMessageChunk>, hooks: PumpHooks): ReadableStream<UIMessageChunk> {
  let client!: ReadableStreamDefaultController<UIMessageChunk>;
  let listening = true;
  const send = (chunk: UIMessageChunk) => {
    if (listening) client.enqueue(chunk);
  };
  const out = new ReadableStream<UIMessageChunk>({
    start: (controller) => {
      client = controller;
    },
    cancel: () => {
      listening = false;
    },
  });
  void (async () => {
    const reader = source.getReader();
    let failure: { error: unknown } | undefined;
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        hooks.observe(next.value);
        const replaced = hooks.rewrite(next.value);
        if (replaced) replaced.forEach(send);
        else send(next.value);
      }
    } catch (error) {
      failure = { error };
    }
    let last: UIMessageChunk[];
    try {
      last = await hooks.end(failure);
    } catch (error) {
      console.error("toolroom: a chat turn failed to end:", error);
      last = [{ type: "error", errorText: `Error: the answer could not be finished (${(error as Error).message}).` }];
    }
    last.forEach(send);
    if (listening) client.close();
  })();
  return out;
}
