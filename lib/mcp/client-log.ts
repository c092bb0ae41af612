import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";

/** Entries kept per server: the Sources view shows recent traffic, not a full capture. */
const RING_SIZE = 300;
/** A message's JSON is kept up to this many characters (a resource read can be megabytes). */
const PAYLOAD_LIMIT = 4_000;

type RpcDirection = "out" | "in";

/**
 * One line of a server's JSON-RPC log: a request joined with its answer, a notification, or an
 * event of Toolroom's own (`reconnect`, `resubscribe`: the payload says what happened and why).
 */
export interface RpcEntry {
  seq: number;
  /** When it was sent or received (ms since the epoch). */
  at: number;
  /** Who sent it: `out` is Toolroom, `in` is the server. */
  direction: RpcDirection;
  kind: "request" | "notification" | "event";
  method: string;
  id?: string | number;
  /** The message's JSON, cut at PAYLOAD_LIMIT characters. */
  payload: string;
  /**
   * The answer, once it came (or never, while pending). `closed` marks a request that will never
   * be answered: its sender cancelled it (the payload is the cancellation), or it failed on the way
   * (the payload is the error; `status` the HTTP status when there was one).
   */
  response?: { at: number; durationMs: number; ok: boolean; payload: string; closed?: "cancelled" | "failed"; status?: number };
}

function bounded(message: unknown): string {
  const text = JSON.stringify(message) ?? "";
  return text.length > PAYLOAD_LIMIT ? `${text.slice(0, PAYLOAD_LIMIT)}… (${text.length} characters)` : text;
}

/** A bounded, in-memory ring of one server's traffic, recorded at the transport. */
export class RpcLog {
  private entries: RpcEntry[] = [];
  private seq = 0;
  /** Requests waiting for their answer, by direction and id; times from a monotonic clock. */
  private pending = new Map<string, { entry: RpcEntry; started: number }>();

  constructor(
    private readonly size = RING_SIZE,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * The log of a server's next connection: the old connection's entries go on (its unanswered
   * requests closed, as that connection is going away), then a `reconnect` line with why. A new
   * log rather than the same one: the new connection's request ids start again at 0.
   */
  static continuing(previous: RpcLog, why: string): RpcLog {
    const next = new RpcLog(previous.size, previous.now);
    next.entries = previous.list().toReversed();
    next.seq = previous.seq;
    const closedAt = Date.now();
    for (const { entry, started } of previous.pending.values()) {
      const copy = next.entries.find((e) => e.seq === entry.seq);
      if (copy)
        copy.response = {
          at: closedAt,
          durationMs: Math.round((previous.now() - started) * 10) / 10,
          ok: false,
          payload: `the connection was replaced (${why}) before the answer came`,
          closed: "failed",
        };
    }
    next.note("reconnect", `reconnected: ${why}`);
    return next;
  }

  /** A line of Toolroom's own between the messages (a reconnect, a subscription not sent again). */
  note(method: string, text: string): void {
    this.push({ seq: ++this.seq, at: Date.now(), direction: "out", kind: "event", method, payload: text });
  }

  record(direction: RpcDirection, message: JSONRPCMessage): void {
    if (isJSONRPCRequest(message) || isJSONRPCNotification(message)) {
      const entry: RpcEntry = {
        seq: ++this.seq,
        at: Date.now(),
        direction,
        kind: isJSONRPCRequest(message) ? "request" : "notification",
        method: message.method,
        payload: bounded(message),
      };
      if (isJSONRPCRequest(message)) {
        entry.id = message.id;
        this.pending.set(`${direction}:${message.id}`, { entry, started: this.now() });
      }
      this.push(entry);
      // The spec: a cancelled request gets no answer. It is sent by whoever sent the request.
      const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (message.method === "notifications/cancelled" && (typeof requestId === "string" || typeof requestId === "number"))
        this.close(`${direction}:${requestId}`, { ok: false, payload: entry.payload, closed: "cancelled" });
      return;
    }
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      // An answer travels the other way from its request.
      this.close(`${direction === "in" ? "out" : "in"}:${message.id}`, { ok: isJSONRPCResultResponse(message), payload: bounded(message) });
    }
  }

  /** A request of ours that never reached the server (a 401, a network error): no answer will come. */
  failed(message: JSONRPCMessage, error: unknown): void {
    if (!isJSONRPCRequest(message)) return;
    const code = (error as { code?: unknown }).code;
    const status = typeof code === "number" && code >= 100 && code < 600 ? code : error instanceof UnauthorizedError ? 401 : undefined;
    this.close(`out:${message.id}`, {
      ok: false,
      payload: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      closed: "failed",
      ...(status !== undefined ? { status } : {}),
    });
  }

  /** The connection closed: whatever was still waiting will not be answered on it. */
  closedConnection(): void {
    for (const key of [...this.pending.keys()]) this.close(key, { ok: false, payload: "the connection closed before the answer came", closed: "failed" });
  }

  private close(key: string, answer: Omit<NonNullable<RpcEntry["response"]>, "at" | "durationMs">): void {
    const waiting = this.pending.get(key);
    if (!waiting) return;
    this.pending.delete(key);
    waiting.entry.response = { at: Date.now(), durationMs: Math.round((this.now() - waiting.started) * 10) / 10, ...answer };
  }

  /** Newest first. */
  list(): RpcEntry[] {
    return this.entries.toReversed().map((e) => ({ ...e, ...(e.response ? { response: { ...e.response } } : {}) }));
  }

  private push(entry: RpcEntry): void {
    this.entries.push(entry);
    if (this.entries.length <= this.size) return;
    const dropped = this.entries.shift();
    if (dropped?.id !== undefined) this.pending.delete(`${dropped.direction}:${dropped.id}`);
  }
}

/**
 * The client's transport with every message recorded on the way through. It wraps the real
 * transport rather than subclassing it, so stdio and streamable HTTP are recorded the same way.
 */
export class RecordingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];

  constructor(
    private readonly inner: Transport,
    private readonly log: RpcLog,
  ) {
    inner.onmessage = (message, extra) => {
      log.record("in", message);
      this.onmessage?.(message, extra);
    };
    inner.onclose = () => {
      log.closedConnection();
      this.onclose?.();
    };
    inner.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.log.record("out", message);
    try {
      await this.inner.send(message, options);
    } catch (error) {
      this.log.failed(message, error);
      throw error;
    }
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
}
