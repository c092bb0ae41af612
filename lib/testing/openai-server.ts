import http from "node:http";
import type { AddressInfo } from "node:net";
import { formatCall } from "@/lib/chat/text-protocol/format";
import type { TextProtocol } from "@/lib/chat/text-protocol/types";

/** What one streamed choice delta may carry, as OpenAI's chat.completion.chunk has it. */
export interface ChunkDelta {
  role?: "assistant";
  content?: string;
  tool_calls?: { index: number; id?: string; type?: "function"; function: { name?: string; arguments?: string } }[];
}

/**
 * One scripted answer: a stream of deltas ending with `finish`; an HTTP error with a JSON body; or
 * a stream that breaks after its deltas — `stall` keeps the connection open and sends nothing more
 * (a provider gone silent), `cut` destroys the socket (a dropped connection).
 */
export type ScriptedReply =
  | { deltas: ChunkDelta[]; finish: "stop" | "tool_calls" | "content_filter"; usage?: Usage | null; perSecond?: number }
  | { status: number; error: string }
  | { deltas: ChunkDelta[]; then: "stall" | "cut" };

/**
 * Token counts as OpenAI reports them: as the spec says, only when the request asked with
 * `stream_options.include_usage`, in a last chunk with no choices; unscripted, a rough count (4
 * characters a token) of what was sent and streamed; `null`: a server that never reports usage.
 */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
}

/** The parts of a chat-completions request body the tests read. */
export interface ChatCompletionRequest {
  model: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  tools?: { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
  messages: { role: string; content?: unknown; tool_calls?: { id: string; function: { name: string; arguments: string } }[]; tool_call_id?: string }[];
}

export interface FakeOpenAIServer {
  /** The base URL a provider is configured with (`…/v1`). */
  baseURL: string;
  /** Every request body received, in order. */
  requests: ChatCompletionRequest[];
  /** Queues replies; each request takes the next one. */
  reply(...replies: ScriptedReply[]): void;
  /**
   * From now on a request that carries `tools` is answered HTTP 400 with this message (a model
   * without tool support, as Ollama answers), without taking a queued reply; null stops it.
   */
  refuseTools(message: string | null): void;
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible `/v1/chat/completions` on 127.0.0.1 that answers `stream: true` requests
 * with SSE in OpenAI's wire format. Each event is written in two halves, so the client's SSE
 * parser meets events split across reads as it does behind real proxies; a reply with `perSecond`
 * is paced like a model generating that many deltas a second. `port`: a fixed port (an
 * e2e server configured before the test starts), else any free one.
 */
export async function startFakeOpenAI({
  port: wantedPort = 0,
  otherwise,
  delayMs = 0,
}: {
  port?: number;
  /** The reply to every request once the queue is empty (a model that always answers alike), instead of a 599. */
  otherwise?: ScriptedReply;
  /** Each reply starts this long after its request came (a model's time to first token). */
  delayMs?: number;
} = {}): Promise<FakeOpenAIServer> {
  const requests: ChatCompletionRequest[] = [];
  const queue: ScriptedReply[] = [];
  let served = 0;
  let refusal: string | null = null;

  const server = http.createServer((req, res) => {
    const body: Buffer[] = [];
    req.on("data", (chunk: Buffer) => body.push(chunk));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
        return;
      }
      const request = JSON.parse(Buffer.concat(body).toString("utf8")) as ChatCompletionRequest;
      requests.push(request);
      // An unscripted request fails loudly rather than hanging the test.
      const reply =
        refusal !== null && request.tools?.length
          ? { status: 400, error: refusal }
          : (queue.shift() ?? otherwise ?? { status: 599, error: `unscripted request #${requests.length}` });
      if (delayMs > 0) setTimeout(() => answer(request, reply, res), delayMs);
      else answer(request, reply, res);
    });
  });
  const answer = (request: ChatCompletionRequest, reply: ScriptedReply, res: http.ServerResponse) => {
    if ("status" in reply) {
      res.writeHead(reply.status, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: reply.error, type: "server_error", param: null, code: null } }));
      return;
    }
    const id = `chatcmpl-${++served}`;
    const created = Math.floor(Date.now() / 1000);
    const chunk = (delta: ChunkDelta, finishReason: string | null) =>
      JSON.stringify({ id, object: "chat.completion.chunk", created, model: request.model, choices: [{ index: 0, delta, finish_reason: finishReason }] });
    const usageChunk = (usage: Usage) => JSON.stringify({ id, object: "chat.completion.chunk", created, model: request.model, choices: [], usage });
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    const usage =
      "finish" in reply && reply.usage !== null && request.stream_options?.include_usage ? (reply.usage ?? roughUsage(request, reply.deltas)) : undefined;
    const ending = "finish" in reply ? [chunk({}, reply.finish), ...(usage ? [usageChunk(usage)] : []), "[DONE]"] : [];
    const events = [chunk({ role: "assistant", content: "" }, null), ...reply.deltas.map((delta) => chunk(delta, null)), ...ending].map(
      (data) => `data: ${data}\n\n`,
    );
    const write = (event: string) => {
      const half = Math.floor(event.length / 2);
      res.write(event.slice(0, half));
      res.write(event.slice(half));
    };
    if ("finish" in reply && reply.perSecond) {
      // A model generating `perSecond` deltas a second: each tick writes the events due by then.
      const started = performance.now();
      let at = 0;
      const tick = () => {
        if (res.destroyed) return;
        const due = Math.min(events.length, 1 + Math.floor(((performance.now() - started) / 1000) * reply.perSecond!));
        for (; at < due; at++) write(events[at]!);
        if (at < events.length) setTimeout(tick, 2);
        else res.end();
      };
      tick();
      return;
    }
    events.forEach(write);
    if ("finish" in reply) res.end();
    // Destroyed once what was written has left, so the client gets every delta and then a reset.
    else if (reply.then === "cut") res.write("", () => res.socket?.destroy());
    // "stall": nothing more until the server closes.
  };
  await new Promise<void>((resolve) => server.listen(wantedPort, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    reply: (...replies) => void queue.push(...replies),
    refuseTools: (message) => {
      refusal = message;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** `text` as content deltas of the given sizes (the rest in one last delta). */
export function textDeltas(text: string, sizes: readonly number[]): ChunkDelta[] {
  const deltas: ChunkDelta[] = [];
  let at = 0;
  for (const size of sizes) {
    if (at >= text.length) break;
    deltas.push({ content: text.slice(at, at + size) });
    at += size;
  }
  if (at < text.length) deltas.push({ content: text.slice(at) });
  return deltas;
}

function roughUsage(request: ChatCompletionRequest, deltas: readonly ChunkDelta[]): Usage {
  const streamed = deltas
    .map((d) => (d.content ?? "") + (d.tool_calls ?? []).map((c) => (c.function.name ?? "") + (c.function.arguments ?? "")).join(""))
    .join("");
  return {
    prompt_tokens: Math.ceil(JSON.stringify(request.messages).length / 4),
    completion_tokens: Math.ceil(streamed.length / 4),
    prompt_tokens_details: { cached_tokens: 0 },
  };
}

/**
 * A text-mode model's reply in `protocol`: prose, then the calls as that protocol writes them,
 * streamed in deltas of 1 to 7 characters so every marker and body is cut somewhere.
 */
export function protocolReply(protocol: TextProtocol, prose: string, calls: { name: string; input: Record<string, unknown> }[]): ScriptedReply {
  const text = `${prose}\n${calls.map((call) => formatCall(protocol, call.name, call.input)).join("\n")}`;
  const sizes = Array.from({ length: text.length }, (_, i) => (i % 7) + 1);
  return { deltas: textDeltas(text, sizes), finish: "stop" };
}
