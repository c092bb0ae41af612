import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { batchDeltas } from "./delta-batch";

type Part = LanguageModelV4StreamPart;

/** A provider stream whose parts are all there at once, as a burst of SSE events read in one go. */
const burst = (parts: Part[]) =>
  new ReadableStream<Part>({
    start(controller) {
      parts.forEach((part) => controller.enqueue(part));
      controller.close();
    },
  });

/** The parts `batchDeltas` makes of `source`. */
async function readAll(source: ReadableStream<Part>): Promise<Part[]> {
  const stream = batchDeltas(source);
  const out: Part[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) out.push(next.value);
  return out;
}

const deltas = (type: "text-delta" | "reasoning-delta", id: string, texts: string[]): Part[] => texts.map((delta) => ({ type, id, delta }));

describe("batchDeltas", () => {
  it("many deltas arriving together come out as far fewer parts, the text exactly as sent, the first delta alone", async () => {
    const words = Array.from({ length: 3000 }, (_, i) => `w${i} `);
    const out = await readAll(burst([{ type: "text-start", id: "t" }, ...deltas("text-delta", "t", words), { type: "text-end", id: "t" }]));
    const texts = out.flatMap((part) => (part.type === "text-delta" ? [part.delta] : []));
    expect(texts.join("")).toBe(words.join(""));
    expect(texts[0]).toBe("w0 ");
    // 4 KB a batch at most: ~17,000 characters are a handful of parts, not 3,000.
    expect(texts.length).toBeLessThan(10);
    expect(texts.every((text) => text.length <= 4096 + 8)).toBe(true);
    expect(out[0]).toEqual({ type: "text-start", id: "t" });
    expect(out.at(-1)).toEqual({ type: "text-end", id: "t" });
  });

  it("keeps the order of parts: held text goes on before any other part, and reasoning and text are never joined", async () => {
    const out = await readAll(
      burst([
        ...deltas("reasoning-delta", "r", ["think", "ing", " more"]),
        { type: "reasoning-end", id: "r" },
        ...deltas("text-delta", "t", ["an", "sw", "er"]),
        { type: "tool-input-start", id: "c", toolName: "x" },
        ...deltas("text-delta", "t", ["after"]),
      ]),
    );
    expect(out).toEqual([
      { type: "reasoning-delta", id: "r", delta: "think" },
      { type: "reasoning-delta", id: "r", delta: "ing more" },
      { type: "reasoning-end", id: "r" },
      { type: "text-delta", id: "t", delta: "answer" },
      { type: "tool-input-start", id: "c", toolName: "x" },
      { type: "text-delta", id: "t", delta: "after" },
    ]);
  });

  it("never merges a delta that carries provider metadata (a reasoning signature)", async () => {
    const signed: Part = { type: "reasoning-delta", id: "r", delta: "", providerMetadata: { anthropic: { signature: "sig" } } };
    const out = await readAll(burst([...deltas("reasoning-delta", "r", ["a", "b"]), signed, ...deltas("reasoning-delta", "r", ["c"])]));
    expect(out).toEqual([
      { type: "reasoning-delta", id: "r", delta: "a" },
      { type: "reasoning-delta", id: "r", delta: "b" },
      signed,
      { type: "reasoning-delta", id: "r", delta: "c" },
    ]);
  });

  it("reading a backlog gives the event loop its turn: a request that arrives meanwhile runs before the backlog is read", async () => {
    let read = 0;
    const total = 3000;
    const source = new ReadableStream<Part>({
      pull(controller) {
        if (read === total) return controller.close();
        read++;
        controller.enqueue({ type: "text-delta", id: "t", delta: "w " });
      },
    });
    // Another request's work, queued as the event loop queues it: it must not wait for the whole backlog.
    let readWhenProbeRan = -1;
    setImmediate(() => (readWhenProbeRan = read));
    const out = await readAll(source);
    expect(out.map((part) => (part.type === "text-delta" ? part.delta : "")).join("")).toBe("w ".repeat(total));
    expect(readWhenProbeRan).toBeGreaterThanOrEqual(0);
    expect(readWhenProbeRan).toBeLessThan(total);
  });

  it("sends held text when the provider goes quiet, without waiting for its next part", async () => {
    let release!: () => void;
    const quiet = new Promise<void>((resolve) => (release = resolve));
    let step = 0;
    const source = new ReadableStream<Part>({
      async pull(controller) {
        step++;
        if (step <= 3) return controller.enqueue({ type: "text-delta", id: "t", delta: `d${step}` });
        await quiet;
        controller.close();
      },
    });
    const reader = batchDeltas(source, { intervalMs: 5 }).getReader();
    expect((await reader.read()).value).toEqual({ type: "text-delta", id: "t", delta: "d1" });
    // The source is now waiting; the held "d2d3" must come out by the timer alone.
    expect((await reader.read()).value).toEqual({ type: "text-delta", id: "t", delta: "d2d3" });
    release();
    expect((await reader.read()).done).toBe(true);
  });
});
