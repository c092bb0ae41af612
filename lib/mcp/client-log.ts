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

/** One line of a server's JSON-RPC log: a request joined with its answer, or a notification. */
export interface RpcEntry {
  seq: number;
  /** When it was sent or received (ms since the epoch). */
  at: number;
  /** Who sent it: `out` is Toolroom, `in` is the server. */
  direction: RpcDirection;
  kind: "request" | "notification";
  method: string;
  id?: string | number;
  /** The message's JSON, cut at PAYLOAD_LIMIT characters. */
  payload: string;
  /** The answer, once it came (or never, while pending). */
  response?: { at: number; durationMs: number; ok: boolean; payload: string };
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
      return;
    }
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      // An answer travels the other way from its request.
      const key = `${direction === "in" ? "out" : "in"}:${message.id}`;
      const waiting = this.pending.get(key);
      if (!waiting) return;
      this.pending.delete(key);
      waiting.entry.response = {
        at: Date.now(),
        durationMs: Math.round((this.now() - waiting.started) * 10) / 10,
        ok: isJSONRPCResultResponse(message),
        payload: bounded(message),
      };
    }
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
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.log.record("out", message);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
}
