import type { LanguageModelV4Middleware, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { markProviderError } from "./turn-errors";

/**
 * Sits directly on the provider's model. A stream that breaks (a dropped connection, a body that
 * cannot be parsed) errors the whole SDK pipeline, and an errored web stream throws away what is
 * queued in it, so the text already streamed never reached the browser nor the database. Here the
 * break becomes an `error` part and the stream ends normally: streamText reports it like any
 * provider error, after the text. Errors are marked as the provider's, for their label.
 */
export const providerStreamMiddleware: LanguageModelV4Middleware = {
  specificationVersion: "v4",
  wrapStream: async ({ doStream }) => {
    let result;
    try {
      result = await doStream();
    } catch (error) {
      throw markProviderError(error);
    }
    const reader = result.stream.getReader();
    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      async pull(controller) {
        try {
          const next = await reader.read();
          if (next.done) controller.close();
          else {
            if (next.value.type === "error") markProviderError(next.value.error);
            controller.enqueue(next.value);
          }
        } catch (error) {
          controller.enqueue({ type: "error", error: markProviderError(error) });
          controller.close();
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return { ...result, stream };
  },
};
