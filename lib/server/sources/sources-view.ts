import "server-only";
import type { Prompt, Resource, ResourceTemplate, ServerCapabilities } from "@modelcontextprotocol/sdk/types.js";
import type { RpcEntry } from "@/lib/mcp/client-log";
import { isSourceRequestError, sessionOf, SourceRequestError, type SourceSession } from "@/lib/mcp/client-session";
import type { Registry, SourceStatus } from "@/lib/tools/registry-types";
import { HttpError } from "@/lib/server/http/http-error";

/** One `mcpServers` entry as the Sources view lists it. */
export interface SourceSummary {
  name: string;
  state: "connected" | "failed" | "stopped";
  transport: SourceStatus["transport"];
  target: string;
  server?: SourceStatus["server"];
  toolCount: number;
  failure?: { message: string; hint: string; stderr?: string };
  /** True when the failure is a missing sign-in (OAuth): the header offers Sign in. */
  needsAuth: boolean;
  /** A reload connected it again (its log and subscriptions went on): when, and why. */
  reconnected?: { at: string; reason: string };
}

/** A section the server may not offer, or may fail to list: the others still show. */
export type Section<T> = { ok: true; items: T[] } | { ok: false; error: string; code: SourceRequestError["code"] };

export interface SourceDetail extends SourceSummary {
  capabilities?: ServerCapabilities;
  instructions?: string;
  tools: { name: string; serverName: string; description: string; readonly: boolean }[];
  resources: Section<Resource>;
  templates: Section<ResourceTemplate>;
  prompts: Section<Prompt>;
}

export interface SourceActivity {
  log: RpcEntry[];
  subscriptions: ReturnType<SourceSession["subscriptions"]>;
  /** How often the server said its lists changed: the view lists resources and prompts again when these move. */
  listChanges: ReturnType<SourceSession["listChanges"]>;
}

const nameOf = (status: SourceStatus) => status.package.slice("mcp:".length);

function summary(registry: Registry, status: SourceStatus): SourceSummary {
  const session = sessionOf(status);
  const diagnostic = registry.diagnostics.find((d) => d.package === status.package && d.kind === "source-failed");
  const failure = session?.failure ?? (diagnostic ? { message: diagnostic.message, hint: diagnostic.hint } : undefined);
  const state = status.state === "failed" ? "failed" : session && !session.connected() ? "stopped" : "connected";
  return {
    name: nameOf(status),
    state,
    transport: status.transport,
    target: status.target,
    ...(status.server ? { server: status.server } : {}),
    toolCount: status.toolCount,
    ...(failure ? { failure: { ...failure, ...(diagnostic?.stderr ? { stderr: diagnostic.stderr } : {}) } } : {}),
    needsAuth: /sign in \(OAuth\)/.test(failure?.message ?? ""),
    ...(status.reconnected ? { reconnected: status.reconnected } : {}),
  };
}

export function listSources(registry: Registry): SourceSummary[] {
  return (registry.sources ?? []).map((status) => summary(registry, status));
}

function find(registry: Registry, name: string): { status: SourceStatus; session: SourceSession } {
  const status = registry.sources?.find((s) => nameOf(s) === name);
  const session = status && sessionOf(status);
  if (!status || !session) throw new HttpError(404, `No MCP server "${name}" in mcpServers.`, "unknown_source");
  return { status, session };
}

/** A consumed server's refusal as an HTTP answer: its words, and what to do about it. */
export function sourceHttpError(error: unknown): unknown {
  if (!isSourceRequestError(error)) return error;
  const status = { not_connected: 503, timed_out: 504, not_supported: 400, server_error: 502 }[error.code];
  return new HttpError(status, error.hint ? `${error.message}. ${error.hint}` : error.message, `source_${error.code}`);
}

async function section<T>(offered: boolean, list: () => Promise<T[]>): Promise<Section<T>> {
  if (!offered) return { ok: true, items: [] };
  try {
    return { ok: true, items: await list() };
  } catch (error) {
    const failure = isSourceRequestError(error) ? error : new SourceRequestError(String(error), "server_error");
    return { ok: false, error: failure.message, code: failure.code };
  }
}

/** Everything the server offers, listed in parallel; a section that fails says why and the rest show. */
export async function sourceDetail(registry: Registry, name: string): Promise<SourceDetail> {
  const { status, session } = find(registry, name);
  const caps = session.capabilities();
  const connected = session.connected();
  const [resources, templates, prompts] = await Promise.all([
    section(connected && Boolean(caps?.resources), () => session.listResources()),
    section(connected && Boolean(caps?.resources), () => session.listResourceTemplates()),
    section(connected && Boolean(caps?.prompts), () => session.listPrompts()),
  ]);
  const tools = registry.tools
    .filter((t) => t.sourcePackage === status.package)
    .map((t) => ({ name: t.name, serverName: t.entry.exportName, description: t.summary, readonly: t.readonly }));
  const instructions = session.instructions();
  return {
    ...summary(registry, status),
    ...(caps ? { capabilities: caps } : {}),
    ...(instructions ? { instructions } : {}),
    tools,
    resources,
    templates,
    prompts,
  };
}

export function sourceActivity(registry: Registry, name: string): SourceActivity {
  const { session } = find(registry, name);
  return { log: session.log(), subscriptions: session.subscriptions(), listChanges: session.listChanges() };
}

export function sessionFor(registry: Registry, name: string): SourceSession {
  return find(registry, name).session;
}
