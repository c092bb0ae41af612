import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";

export interface ChainLink {
  /** The settings name, shown to the user as the model that answered. */
  ref: string;
  model: LanguageModelV4;
}

/**
 * Tries each model in turn. A provider error before the first content (a throw from doStream, or
 * an error part before any text or tool call) moves on to the next; after that, errors are the
 * answering model's own. The model that answered is reported as `response-metadata.modelId`.
 */
export function fallbackModel(ref: string, chain: ChainLink[]): LanguageModelV4 {
  const first = chain[0];
  if (!first) throw new Error(`fallback model "${ref}" has an empty chain`);
  return {
    specificationVersion: "v4",
    provider: "fallback",
    modelId: ref,
    supportedUrls: first.model.supportedUrls,

    async doGenerate(options: LanguageModelV4CallOptions) {
      let lastError: unknown;
      for (const link of chain) {
        try {
          const result = await link.model.doGenerate(options);
          return { ...result, response: { ...result.response, modelId: `${link.ref} (${link.model.provider}/${link.model.modelId})` } };
        } catch (error) {
          if (options.abortSignal?.aborted) throw error;
          lastError = error;
        }
      }
      throw lastError;
    },

    async doStream(options: LanguageModelV4CallOptions) {
      const errors: string[] = [];
      for (const link of chain) {
        let result: Awaited<ReturnType<LanguageModelV4["doStream"]>>;
        try {
          result = await link.model.doStream(options);
        } catch (error) {
          if (options.abortSignal?.aborted) throw error;
          errors.push(`${link.ref}: ${(error as Error).message}`);
          continue;
        }
        const reader = result.stream.getReader();
        const buffered: LanguageModelV4StreamPart[] = [];
        let failed: unknown;
        // Read up to the first content part; an error before it means "try the next model".
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          if (value.type === "error") {
            failed = value.error;
            break;
          }
          buffered.push(value);
          if (isContent(value)) break;
        }
        if (failed !== undefined) {
          reader.cancel().catch(() => {});
          errors.push(`${link.ref}: ${failed instanceof Error ? failed.message : JSON.stringify(failed)}`);
          continue;
        }
        const answered = `${link.ref} (${link.model.provider}/${link.model.modelId})`;
        const stream = new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            controller.enqueue({ type: "response-metadata", modelId: answered });
            for (const part of buffered) controller.enqueue(part.type === "response-metadata" ? { ...part, modelId: answered } : part);
          },
          async pull(controller) {
            const { value, done } = await reader.read();
            if (done) controller.close();
            else controller.enqueue(value.type === "response-metadata" ? { ...value, modelId: answered } : value);
          },
          cancel(reason) {
            return reader.cancel(reason);
          },
        });
        return { ...result, stream };
      }
      throw new Error(`every model in the fallback chain "${ref}" failed: ${errors.join("; ")}`);
    },
  };
}

function isContent(part: LanguageModelV4StreamPart): boolean {
  return (
    part.type === "text-delta" || part.type === "tool-call" || part.type === "tool-input-start" || part.type === "reasoning-delta" || part.type === "finish"
  );
}
