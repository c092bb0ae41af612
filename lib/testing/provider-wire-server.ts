import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A loopback stand-in for Anthropic's Messages API and OpenAI's Responses API: it records each
 * request (path and JSON body) and answers with the next queued stream, written as those APIs
 * write server-sent events (`event: <type>` then `data: <json>`). The streams below follow the
 * shapes of recorded real ones (the AI SDK's own fixtures): the provider packages parse them as
 * they parse the real thing, so what a test reads from `requests` is what the provider would get.
 */
export interface WireServer {
  /** The base URL a provider is configured with (`…/v1`): Anthropic posts to /v1/messages, OpenAI to /v1/responses. */
  baseURL: string;
  requests: { path: string; body: Record<string, unknown> }[];
  /** Queues streams; each request takes the next one (an unscripted request is answered 599). */
  reply(...streams: WireEvent[][]): void;
  close(): Promise<void>;
}

/** One server-sent event: its `type` is also its SSE event name. */
export type WireEvent = { type: string } & Record<string, unknown>;

export async function startWireServer(): Promise<WireServer> {
  const requests: WireServer["requests"] = [];
  const queue: WireEvent[][] = [];
  const server = http.createServer((req, res) => {
    const body: Buffer[] = [];
    req.on("data", (chunk: Buffer) => body.push(chunk));
    req.on("end", () => {
      requests.push({ path: req.url ?? "", body: JSON.parse(Buffer.concat(body).toString("utf8")) as Record<string, unknown> });
      const events = queue.shift();
      if (!events) {
        res.writeHead(599, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `unscripted request #${requests.length}` } }));
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      for (const event of events) res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    reply: (...streams) => void queue.push(...streams),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

const anthropicUsage = { input_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

function anthropicMessage(blocks: WireEvent[], stopReason: "tool_use" | "end_turn"): WireEvent[] {
  return [
    {
      type: "message_start",
      message: {
        id: "msg_loopback",
        type: "message",
        role: "assistant",
        model: "claude-loopback",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...anthropicUsage, output_tokens: 1 },
      },
    },
    ...blocks,
    { type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage: { ...anthropicUsage, output_tokens: 12 } },
    { type: "message_stop" },
  ];
}

/** Claude calling one tool: a tool_use block whose input streams as input_json_delta. */
export function anthropicToolUse(id: string, name: string, input: Record<string, unknown>): WireEvent[] {
  return anthropicMessage(
    [
      { type: "content_block_start", index: 0, content_block: { type: "tool_use", id, name, input: {} } },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify(input) } },
      { type: "content_block_stop", index: 0 },
    ],
    "tool_use",
  );
}

/** Claude answering in text. */
export function anthropicText(text: string): WireEvent[] {
  return anthropicMessage(
    [
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
      { type: "content_block_stop", index: 0 },
    ],
    "end_turn",
  );
}

function response(id: string, status: "in_progress" | "completed", output: unknown[]) {
  return {
    id,
    object: "response",
    created_at: 1_787_659_560,
    status,
    model: "gpt-loopback",
    output,
    incomplete_details: null,
    usage:
      status === "completed"
        ? { input_tokens: 20, input_tokens_details: { cached_tokens: 0 }, output_tokens: 12, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 32 }
        : null,
  };
}

function responsesStream(id: string, item: Record<string, unknown> & { id: string }, deltas: WireEvent[], done: Record<string, unknown>): WireEvent[] {
  let seq = 0;
  const numbered = (event: WireEvent): WireEvent => ({ ...event, sequence_number: seq++ });
  return [
    { type: "response.created", response: response(id, "in_progress", []) },
    { type: "response.in_progress", response: response(id, "in_progress", []) },
    { type: "response.output_item.added", output_index: 0, item },
    ...deltas,
    { type: "response.output_item.done", output_index: 0, item: { ...item, ...done, status: "completed" } },
    { type: "response.completed", response: response(id, "completed", [{ ...item, ...done, status: "completed" }]) },
  ].map(numbered);
}

/** GPT (Responses API) calling one function. */
export function responsesFunctionCall(callId: string, name: string, input: Record<string, unknown>): WireEvent[] {
  const args = JSON.stringify(input);
  const item = { id: "fc_loopback", type: "function_call", status: "in_progress", arguments: "", call_id: callId, name };
  return responsesStream(
    "resp_loopback_1",
    item,
    [
      { type: "response.function_call_arguments.delta", item_id: item.id, output_index: 0, delta: args },
      { type: "response.function_call_arguments.done", item_id: item.id, output_index: 0, arguments: args },
    ],
    { arguments: args },
  );
}

/** GPT (Responses API) answering in text. */
export function responsesText(text: string): WireEvent[] {
  const item = { id: "msg_loopback", type: "message", status: "in_progress", role: "assistant", content: [] };
  return responsesStream(
    "resp_loopback_2",
    item,
    [
      { type: "response.content_part.added", item_id: item.id, output_index: 0, content_index: 0, part: { type: "output_text", text: "", annotations: [] } },
      { type: "response.output_text.delta", item_id: item.id, output_index: 0, content_index: 0, delta: text, logprobs: [] },
      { type: "response.output_text.done", item_id: item.id, output_index: 0, content_index: 0, text, logprobs: [] },
    ],
    { content: [{ type: "output_text", text, annotations: [] }] },
  );
}
