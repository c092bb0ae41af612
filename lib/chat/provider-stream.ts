import type { LanguageModelV4CallOptions, LanguageModelV4Middleware, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { markProviderError } from "./turn-errors";

/** Sees one provider call: the request as sent, then each part of the reply as received. */
export interface ProviderCallObserver {
  sent(request: { body?: unknown } | undefined): void;
  part(part: LanguageModelV4StreamPart): void;
}

/** Called for every provider call (a retry is a call of its own); the trace's raw capture. */
export type ProviderTap = (params: LanguageModelV4CallOptions) => ProviderCallObserver | undefined;

/**
 * Sits directly on the provider's model. A stream that breaks (a dropped connection, a body that
 * cannot be parsed) errors the whole SDK pipeline, and an errored web stream throws away what is
 * queued in it, so the text already streamed never reached the browser nor the database. Here the
 * break becomes an `error` part and the stream ends normally: streamText reports it like any
 * provider error, after the text. Errors are marked as the provider's, for their label.
 *
 * A `tap` sees the call here too, on the stream this middleware already reads, rather than
 * through a stream stage of its own: a stage per delta is most of a streamed part's cost.
 */
export function providerStreamMiddleware(tap?: ProviderTap): LanguageModelV4Middleware {
  return {
    specificationVersion: "v4",
    wrapStream: async ({ doStream, params }) => {
      const observer = tap?.(params);
      let result;
      // A call cut by the turn's own abort (Stop, a browser gone, a timeout) has not failed: the
      // error goes to the SDK as it is, which ends the turn as aborted, not as the provider's error.
      const ownAbort = () => params.abortSignal?.aborted === true;
      try {
        result = await doStream();
      } catch (error) {
        throw ownAbort() ? error : markProviderError(error);
      }
      observer?.sent(result.request);
      const reader = result.stream.getReader();
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        async pull(controller) {
          try {
            const next = await reader.read();
            if (next.done) controller.close();
            else {
              if (next.value.type === "error") markProviderError(next.value.error);
              observer?.part(next.value);
              controller.enqueue(next.value);
            }
          } catch (error) {
            // Ended, not errored: an errored stream would drop the parts still queued behind it.
            if (ownAbort()) return controller.close();
            controller.enqueue({ type: "error", error: markProviderError(error) });
            controller.close();
          }
        },
        cancel: (reason) => reader.cancel(reason),
      });
      return { ...result, stream };
    },
  };
}
