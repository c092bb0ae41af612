import type { Registry, RegisteredTool } from "@/lib/tools/registry-types";
import type { MadeCall } from "./matchers";

/**
 * The registry with some tools answering canned outputs: the definition keeps its schema and its
 * `confirm`, so a mocked confirming tool still goes through the case's confirm policy.
 */
export function withMocks(registry: Registry, mocks: Record<string, unknown> | undefined): Registry {
  if (!mocks || Object.keys(mocks).length === 0) return registry;
  const tools = registry.tools.map((tool): RegisteredTool => {
    if (!(tool.name in mocks)) return tool;
    const output = mocks[tool.name];
    return {
      ...tool,
      resolve: (ctx) => ({ ...tool.resolve(ctx), execute: async () => (typeof output === "string" ? output : JSON.stringify(output, null, 2)) }),
    };
  });
  const byName = new Map(tools.map((t) => [t.name, t]));
  return { ...registry, tools, get: (name) => byName.get(name) };
}

/** A call the case's mocks answered did not run the tool: it is recorded as mocked, not executed. */
export function markMocked(calls: MadeCall[], mocks: Record<string, unknown> | undefined): MadeCall[] {
  if (!mocks) return calls;
  return calls.map((call) => (call.outcome === "executed" && call.tool in mocks ? { ...call, outcome: "mocked" } : call));
}
