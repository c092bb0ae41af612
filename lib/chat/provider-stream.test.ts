import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { providerStreamMiddleware } from "./provider-stream";
import { turnErrorText } from "./turn-errors";

/** A provider reply that sends one delta, then breaks: with `AbortError` once `signal` aborts (as fetch does), or at once with `failure`. */
function reply(signal: AbortSignal, failure?: Error) {
  let sent = false;
  const stream = new ReadableStream<LanguageModelV4StreamPart>({
    pull: (controller) => {
      if (!sent) {
        sent = true;
        controller.enqueue({ type: "text-delta", id: "t", delta: "Hello" });
        return;
      }
      if (failure) throw failure;
      return new Promise<void>((_resolve, reject) =>
        signal.addEventListener("abort", () => reject(new DOMException("This operation was aborted", "AbortError"))),
      );
    },
  });
  return { stream };
}

async function wrapped(signal: AbortSignal, failure?: Error) {
  const middleware = providerStreamMiddleware();
  const params = { prompt: [], abortSignal: signal } as unknown as LanguageModelV4CallOptions;
  const result = await middleware.wrapStream!({
    doGenerate: () => Promise.reject(new Error("unused")),
    doStream: async () => reply(signal, failure),
    params,
    model: {} as never,
  });
  return result.stream.getReader();
}

describe("providerStreamMiddleware", () => {
  it("a reply that breaks becomes an error part, labelled the provider's, after the text", async () => {
    const reader = await wrapped(new AbortController().signal, new Error("socket hang up"));
    expect((await reader.read()).value).toEqual({ type: "text-delta", id: "t", delta: "Hello" });
    const broken = (await reader.read()).value;
    expect(broken?.type).toBe("error");
    expect(turnErrorText((broken as { error: unknown }).error, "loop/m")).toMatch(/^Provider error/);
    expect((await reader.read()).done).toBe(true);
  });

  it("a reply cut by the turn's own abort (Stop, a lost browser, a timeout) is not the provider's failure: it just ends, and the SDK reports the abort", async () => {
    const stop = new AbortController();
    const reader = await wrapped(stop.signal);
    expect((await reader.read()).value).toEqual({ type: "text-delta", id: "t", delta: "Hello" });
    const next = reader.read();
    stop.abort();
    expect(await next).toEqual({ done: true, value: undefined });
  });

  it("a request refused by the turn's own abort before any reply is not labelled the provider's either", async () => {
    const stop = new AbortController();
    stop.abort();
    const middleware = providerStreamMiddleware();
    const params = { prompt: [], abortSignal: stop.signal } as unknown as LanguageModelV4CallOptions;
    const aborted = new DOMException("This operation was aborted", "AbortError");
    const call = middleware.wrapStream!({
      doGenerate: () => Promise.reject(new Error("unused")),
      doStream: () => Promise.reject(aborted),
      params,
      model: {} as never,
    });
    await expect(call).rejects.toBe(aborted);
    expect(turnErrorText(aborted, "loop/m")).not.toMatch(/^Provider error/);
  });
});
