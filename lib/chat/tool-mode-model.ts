import { APICallError, type LanguageModelV4, type LanguageModelV4CallOptions, type LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { wrapLanguageModel } from "ai";
import { INVALID_CALL_TOOL_NAME } from "./invalid-call-tool";
import { textModeMiddleware, type TextModeOptions } from "./text-mode";
import type { TextProtocol } from "./text-protocol/types";

export type ToolMode = "native" | "text";

/**
 * What auto mode learned about a model, until the server restarts: "text" when its provider
 * refused tools (it has no native tool calling, so text mode never falls back to native), "native"
 * when a text-mode reply came back empty.
 */
const learned = new Map<string, ToolMode>();

export function toTextNotice(protocol: TextProtocol): string {
  return `this model has no native tool calling; using text mode (${protocol})`;
}

export const TO_NATIVE_NOTICE = "this model's text-mode reply was empty; using native tool calling";

/**
 * Whether a provider error says the model cannot take tools: an HTTP 400/404/422 whose message is
 * about tools (Ollama's "does not support tools", vLLM's tool-choice flags, "function calling").
 */
export function isToolsRejection(error: unknown): boolean {
  if (!APICallError.isInstance(error)) return false;
  if (error.statusCode !== 400 && error.statusCode !== 404 && error.statusCode !== 422) return false;
  return /\btools?\b|tool[ _-]?(?:choice|call)|function[ _-]?call/i.test(`${error.message} ${error.responseBody ?? ""}`);
}

export interface ToolModeModelOptions extends Omit<TextModeOptions, "protocol"> {
  protocol: TextProtocol;
  /** The chat's mode: the one mode used, or in auto mode the first one tried. */
  mode: ToolMode;
  /** Auto mode: fall back to text when tools are refused, to native when a text reply is empty. */
  auto: boolean;
  /** Auto mode's switch, said once in the chat. */
  onNotice?: (notice: string) => void;
}

/** The model a chat turn talks to: the provider's, in text mode behind the text-mode middleware, or in auto mode either. */
export function toolModeModel(providerModel: LanguageModelV4, options: ToolModeModelOptions): LanguageModelV4 {
  const { mode, auto, onNotice, ...textOptions } = options;
  const text = wrapLanguageModel({ model: providerModel, middleware: textModeMiddleware(textOptions) });
  if (!auto) return mode === "text" ? text : providerModel;
  const key = `${providerModel.provider}/${providerModel.modelId}`;
  // The invalid-call tool reports unparsable text calls; a native model is never offered it.
  const nativeOptions = (params: LanguageModelV4CallOptions): LanguageModelV4CallOptions => ({
    ...params,
    tools: params.tools?.filter((tool) => tool.name !== INVALID_CALL_TOOL_NAME),
  });
  const offersTools = (params: LanguageModelV4CallOptions) => (params.tools ?? []).some((tool) => tool.name !== INVALID_CALL_TOOL_NAME);
  const switchTo = (to: ToolMode) => {
    learned.set(key, to);
    onNotice?.(to === "text" ? toTextNotice(options.protocol) : TO_NATIVE_NOTICE);
  };

  const nativeFirst = async <T>(params: LanguageModelV4CallOptions, native: () => PromiseLike<T>, fallback: () => PromiseLike<T>): Promise<T> => {
    try {
      return await native();
    } catch (error) {
      if (!offersTools(params) || !isToolsRejection(error)) throw error;
      switchTo("text");
      return fallback();
    }
  };

  return {
    specificationVersion: "v4",
    provider: providerModel.provider,
    modelId: providerModel.modelId,
    supportedUrls: providerModel.supportedUrls,
    doGenerate: (params) => {
      const current = learned.get(key) ?? mode;
      if (current === "text") return text.doGenerate(params);
      return nativeFirst(
        params,
        () => providerModel.doGenerate(nativeOptions(params)),
        () => text.doGenerate(params),
      );
    },
    doStream: async (params) => {
      const current = learned.get(key) ?? mode;
      if (current === "native") {
        return nativeFirst(
          params,
          () => providerModel.doStream(nativeOptions(params)),
          () => text.doStream(params),
        );
      }
      const result = await text.doStream(params);
      // A provider that refused tools has no native mode to fall back to.
      if (learned.get(key) === "text" || !offersTools(params)) return result;
      const reply = await untilNotEmpty(result.stream);
      if (reply.empty) {
        switchTo("native");
        return providerModel.doStream(nativeOptions(params));
      }
      return { ...result, stream: reply.stream };
    },
  };
}

/** Parts that show the reply is not empty: text that is not blank, or a call. */
function isSubstance(part: LanguageModelV4StreamPart): boolean {
  return (part.type === "text-delta" && part.delta.trim() !== "") || part.type === "tool-call";
}

/**
 * Reads a stream until it shows substance or ends. An empty reply (no text, no call, no error) is
 * dropped; otherwise the parts read so far and the rest stream on unchanged.
 */
async function untilNotEmpty(
  stream: ReadableStream<LanguageModelV4StreamPart>,
): Promise<{ empty: boolean; stream: ReadableStream<LanguageModelV4StreamPart> }> {
  const reader = stream.getReader();
  const held: LanguageModelV4StreamPart[] = [];
  let ended = false;
  for (;;) {
    const next = await reader.read();
    if (next.done) {
      ended = true;
      break;
    }
    held.push(next.value);
    if (isSubstance(next.value) || next.value.type === "error") break;
  }
  if (ended && !held.some((part) => part.type === "error")) {
    return { empty: true, stream: new ReadableStream({ start: (controller) => controller.close() }) };
  }
  return {
    empty: false,
    stream: new ReadableStream<LanguageModelV4StreamPart>({
      start(controller) {
        for (const part of held) controller.enqueue(part);
        if (ended) controller.close();
      },
      async pull(controller) {
        if (ended) return;
        const next = await reader.read();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      cancel: (reason) => reader.cancel(reason),
    }),
  };
}
