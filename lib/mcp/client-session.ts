import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  ErrorCode,
  McpError,
  ResourceUpdatedNotificationSchema,
  type CompleteRequest,
  type GetPromptResult,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type ServerCapabilities,
} from "@modelcontextprotocol/sdk/types.js";
import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import type { SourceStatus } from "@/lib/tools/registry-types";
import type { ListChanges } from "./client-connect";
import type { RpcEntry, RpcLog } from "./client-log";

/**
 * A request the Sources view makes waits at most this long: a slow server gets a clear error, and
 * the page's request is answered.
 */
const SOURCE_REQUEST_TIMEOUT_MS = 10_000;
/** A server with more pages than this is looping on its cursor. */
const MAX_PAGES = 20;

// Symbol.for is one registry per process: the brand is the same in every copy of this module.
const SOURCE_REQUEST_ERROR = Symbol.for("toolroom.SourceRequestError");

/** Why a request to a consumed server did not work, in words a person can act on. */
export class SourceRequestError extends Error {
  override name = "SourceRequestError";
  readonly [SOURCE_REQUEST_ERROR] = true;
  constructor(
    message: string,
    readonly code: "not_connected" | "not_supported" | "timed_out" | "server_error",
    readonly hint?: string,
  ) {
    super(message);
  }
}

/**
 * True for a SourceRequestError from any copy of this module. Next bundles each route apart, and
 * the sessions live on globalThis with the registry: their errors come from the copy of the route
 * that loaded the registry first, and `instanceof` in another route is false.
 */
export function isSourceRequestError(error: unknown): error is SourceRequestError {
  return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[SOURCE_REQUEST_ERROR] === true;
}

/**
 * A resource the person subscribed to, with how many `notifications/resources/updated` it got and
 * when the last came. `lost`: after a reconnect it could not be subscribed again, and why.
 */
export interface Subscription {
  uri: string;
  updates: number;
  lastUpdate?: number;
  lost?: string;
}

/** What the Sources view reads of one `mcpServers` entry, through the registry's own connection. */
export interface SourceSession {
  name: string;
  rpcLog: RpcLog;
  /** Set when the server could not be started or reached (its diagnostic's words). */
  failure?: { message: string; hint: string };
  connected(): boolean;
  capabilities(): ServerCapabilities | undefined;
  instructions(): string | undefined;
  listResources(): Promise<Resource[]>;
  listResourceTemplates(): Promise<ResourceTemplate[]>;
  listPrompts(): Promise<Prompt[]>;
  readResource(uri: string): Promise<ReadResourceResult>;
  subscribe(uri: string): Promise<void>;
  unsubscribe(uri: string): Promise<void>;
  /** Subscribed resources (and those a reconnect could not subscribe again). */
  subscriptions(): Subscription[];
  /**
   * After a reconnect: subscribes again to what the person had subscribed to on the old
   * connection; one the server no longer offers (or refuses) stays listed as lost, with why.
   */
  restore(previous: Subscription[]): Promise<void>;
  getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult>;
  complete(params: CompleteRequest["params"]): Promise<string[]>;
  log(): RpcEntry[];
  /** How often the server said each list changed: the Sources view lists its resources and prompts again when these move. */
  listChanges(): ListChanges;
}

// Keyed by the registry's status object: a live reload brings new statuses (and connections), and
// the old ones go with their registry. On globalThis, as the registry is: Next bundles each route
// separately, and a module-level map would be another, empty one in the Sources routes.
const shared = globalThis as { __toolroomSourceSessions?: WeakMap<SourceStatus, SourceSession> };
const sessions = (shared.__toolroomSourceSessions ??= new WeakMap<SourceStatus, SourceSession>());

export function attachSession(status: SourceStatus, session: SourceSession): void {
  sessions.set(status, session);
}

export function sessionOf(status: SourceStatus): SourceSession | undefined {
  return sessions.get(status);
}

function explain(method: string, error: unknown, timeoutMs: number): SourceRequestError {
  if (isSourceRequestError(error)) return error;
  if (error instanceof McpError && error.code === Number(ErrorCode.RequestTimeout))
    return new SourceRequestError(`the server did not answer ${method} within ${timeoutMs / 1000} s`, "timed_out");
  if (error instanceof McpError && error.code === Number(ErrorCode.ConnectionClosed))
    return new SourceRequestError("the server has stopped", "not_connected", "Restart Toolroom (or save the settings) to start it again.");
  if (error instanceof McpError && error.code === Number(ErrorCode.MethodNotFound))
    return new SourceRequestError(`the server does not implement ${method}`, "not_supported");
  const message = error instanceof McpError ? error.message.replace(/^MCP error -?\d+: /, "") : error instanceof Error ? error.message : String(error);
  return new SourceRequestError(`${method} failed: ${message}`, "server_error");
}

/**
 * The session of a server that never connected: its log (the failed handshake) and why. `kept`:
 * the subscriptions of the connection before (a reload), listed as lost until one connects again.
 */
export function failedSession(name: string, rpcLog: RpcLog, failure: { message: string; hint: string }, kept: Subscription[] = []): SourceSession {
  const refuse = (): never => {
    throw new SourceRequestError(`the server is not connected: ${failure.message}`, "not_connected", failure.hint);
  };
  return {
    name,
    rpcLog,
    failure,
    connected: () => false,
    capabilities: () => undefined,
    instructions: () => undefined,
    listResources: async () => refuse(),
    listResourceTemplates: async () => refuse(),
    listPrompts: async () => refuse(),
    readResource: async () => refuse(),
    subscribe: async () => refuse(),
    unsubscribe: async () => refuse(),
    subscriptions: () => kept.map((k) => ({ ...k, lost: `the server did not connect: ${failure.message}` })),
    restore: async () => {},
    getPrompt: async () => refuse(),
    complete: async () => refuse(),
    log: () => rpcLog.list(),
    listChanges: () => ({ tools: 0, resources: 0, prompts: 0 }),
  };
}

/** A subscription's update counts, without its URI or a lost mark (subscribed again, they go on). */
function countsOf({ uri: _uri, lost: _lost, ...counts }: Subscription): Omit<Subscription, "uri" | "lost"> {
  return counts;
}

/** The session of a connected server; `isGone` says whether it has stopped since. */
export function connectedSession(
  name: string,
  client: Client,
  rpcLog: RpcLog,
  isGone: () => boolean,
  listChanges: ListChanges,
  timeoutMs = SOURCE_REQUEST_TIMEOUT_MS,
): SourceSession {
  const subscribed = new Map<string, Omit<Subscription, "uri">>();
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    const entry = subscribed.get(notification.params.uri);
    if (entry) {
      entry.updates++;
      entry.lastUpdate = Date.now();
    }
  });

  const options: RequestOptions = { timeout: timeoutMs };
  async function request<T>(method: string, capability: keyof ServerCapabilities | undefined, work: () => Promise<T>): Promise<T> {
    if (isGone()) throw new SourceRequestError("the server has stopped", "not_connected", "Restart Toolroom (or save the settings) to start it again.");
    if (capability && !client.getServerCapabilities()?.[capability])
      throw new SourceRequestError(`the server does not offer ${capability} (not in its capabilities)`, "not_supported");
    try {
      return await work();
    } catch (error) {
      throw explain(method, error, timeoutMs);
    }
  }
  async function allPages<T>(list: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await list(cursor);
      items.push(...result.items);
      if (!result.nextCursor || result.nextCursor === cursor) break;
      cursor = result.nextCursor;
    }
    return items;
  }
  const params = (cursor: string | undefined) => (cursor ? { cursor } : undefined);
  const allResources = () =>
    allPages(async (c) => {
      const r = await client.listResources(params(c), options);
      return { items: r.resources, nextCursor: r.nextCursor };
    });
  const allTemplates = () =>
    allPages(async (c) => {
      const r = await client.listResourceTemplates(params(c), options);
      return { items: r.resourceTemplates, nextCursor: r.nextCursor };
    });
  /** Whether a URI is one the server lists or one of its templates makes; undefined when it cannot list them. */
  async function offeredResources(): Promise<((uri: string) => boolean) | undefined> {
    try {
      const [resources, templates] = await Promise.all([allResources(), allTemplates().catch(() => [])]);
      const uris = new Set(resources.map((r) => r.uri));
      const patterns = templates.map((t) => new UriTemplate(t.uriTemplate));
      return (uri) => uris.has(uri) || patterns.some((p) => p.match(uri) !== null);
    } catch {
      return undefined;
    }
  }

  return {
    name,
    rpcLog,
    connected: () => !isGone(),
    capabilities: () => client.getServerCapabilities(),
    instructions: () => client.getInstructions(),
    listResources: () => request("resources/list", "resources", allResources),
    listResourceTemplates: () => request("resources/templates/list", "resources", allTemplates),
    listPrompts: () =>
      request("prompts/list", "prompts", () =>
        allPages(async (c) => {
          const r = await client.listPrompts(params(c), options);
          return { items: r.prompts, nextCursor: r.nextCursor };
        }),
      ),
    readResource: (uri) => request("resources/read", "resources", () => client.readResource({ uri }, options)),
    subscribe: (uri) =>
      request("resources/subscribe", "resources", async () => {
        if (!client.getServerCapabilities()?.resources?.subscribe)
          throw new SourceRequestError("the server does not offer resource subscriptions", "not_supported");
        await client.subscribeResource({ uri }, options);
        subscribed.set(uri, countsOf({ uri, updates: 0, ...subscribed.get(uri) }));
      }),
    unsubscribe: (uri) =>
      request("resources/unsubscribe", "resources", async () => {
        // A lost one was never subscribed on this connection: nothing to ask the server.
        if (!subscribed.get(uri)?.lost) await client.unsubscribeResource({ uri }, options);
        subscribed.delete(uri);
      }),
    subscriptions: () => [...subscribed].map(([uri, s]) => ({ uri, ...s })),
    restore: async (previous) => {
      const lose = (was: Subscription, why: string) => {
        subscribed.set(was.uri, { ...countsOf(was), lost: why });
        rpcLog.note("resubscribe", `${was.uri}: not subscribed again: ${why}`);
      };
      const caps = client.getServerCapabilities();
      const refusal = !caps?.resources
        ? "the server no longer offers resources"
        : !caps.resources.subscribe
          ? "the server no longer offers subscriptions"
          : null;
      const offered = refusal || !previous.length ? undefined : await offeredResources();
      await Promise.all(
        previous.map(async (was) => {
          if (refusal) return lose(was, refusal);
          if (offered && !offered(was.uri)) return lose(was, "the server no longer offers it");
          try {
            await client.subscribeResource({ uri: was.uri }, options);
            subscribed.set(was.uri, countsOf(was));
          } catch (error) {
            lose(was, explain("resources/subscribe", error, timeoutMs).message);
          }
        }),
      );
    },
    getPrompt: (promptName, args) => request("prompts/get", "prompts", () => client.getPrompt({ name: promptName, arguments: args }, options)),
    complete: (completeParams) => request("completion/complete", "completions", async () => (await client.complete(completeParams, options)).completion.values),
    log: () => rpcLog.list(),
    listChanges: () => ({ ...listChanges }),
  };
}
