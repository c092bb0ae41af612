import { parseJsonEventStream, readUIMessageStream, uiMessageChunkSchema, type UIMessage, type UIMessageChunk } from "ai";

export interface ChatStream {
  chunks: UIMessageChunk[];
  /** The assistant message as a client rebuilds it from the stream. */
  message: UIMessage;
}

/** Reads a chat route's whole SSE body: every chunk, and the message the browser would rebuild from them. */
export async function readChatStream(response: Response): Promise<ChatStream> {
  if (!response.body) throw new Error("the response has no body");
  const chunks: UIMessageChunk[] = [];
  const reader = parseJsonEventStream({ stream: response.body, schema: uiMessageChunkSchema }).getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    if (!next.value.success) throw next.value.error;
    chunks.push(next.value.value);
  }
  const replay = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let message: UIMessage | undefined;
  // Error chunks are for the caller to assert on from `chunks`; here they only must not stop the rebuild.
  for await (const state of readUIMessageStream({ stream: replay, onError: () => {} })) message = state;
  if (!message) throw new Error("the response streamed no message");
  return { chunks, message };
}
