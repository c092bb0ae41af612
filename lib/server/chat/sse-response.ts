import type { UIMessageChunk } from "ai";

const encoder = new TextEncoder();

/**
 * The UI message stream as the AI SDK's SSE response (`createUIMessageStreamResponse`: the same
 * events, `[DONE]` last, the same headers), in one stream stage instead of two (JSON to SSE text,
 * then text to bytes): every chunk of every streaming answer crosses it (#29.1).
 */
export function uiMessageSseResponse(stream: ReadableStream<UIMessageChunk>, headers: Record<string, string>): Response {
  const body = stream.pipeThrough(
    new TransformStream<UIMessageChunk, Uint8Array>({
      transform: (chunk, controller) => controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`)),
      flush: (controller) => controller.enqueue(encoder.encode("data: [DONE]\n\n")),
    }),
  );
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
      "x-vercel-ai-ui-message-stream": "v1",
      "x-accel-buffering": "no",
      ...headers,
    },
  });
}
