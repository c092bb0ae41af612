import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionOf } from "@/lib/mcp/client-session";
import { loadRegistry } from "@/lib/server/runtime/registry";
import { settingsSchema } from "@/lib/settings/schema";
import { testContext } from "@/lib/testing/context";
import { invoke } from "@/lib/tools/invoke";
import type { Registry } from "@/lib/tools/registry-types";
import { readResource, setSubscription } from "./source-actions";
import { listSources, sourceActivity } from "./sources-view";

// A live reload builds the next registry from the one in use (`previous`) and then closes that
// one: servers whose entry did not change must come through it untouched.
const FIXTURE = path.resolve(import.meta.dirname, "../../mcp/__fixtures__/mcp-sources-server.mjs");
const COUNTER = "fixture://counter";

let tmp: string;
const opened: Registry[] = [];

async function registryOf(mcpServers: Record<string, { args: string[]; prefix: string }>, previous?: Registry, reconnect?: Record<string, string>) {
  const servers = Object.fromEntries(Object.entries(mcpServers).map(([name, s]) => [name, { command: "node", ...s }]));
  const registry = await loadRegistry({ settings: settingsSchema.parse({ mcpServers: servers }), cwd: tmp, log: () => {}, previous, reconnect });
  opened.push(registry);
  return registry;
}

const methods = (registry: Registry, name: string) => sourceActivity(registry, name).log.map((e) => e.method);
const count = (list: string[], method: string) => list.filter((m) => m === method).length;
const statusOf = (registry: Registry, name: string) => registry.sources?.find((s) => s.package === `mcp:${name}`);

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-sources-reload-"));
});

afterAll(async () => {
  for (const registry of opened) await registry.close?.();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("MCP servers across a settings reload", { timeout: 60_000 }, () => {
  it("keeps an unchanged server's connection, log and subscriptions; reconnects a changed one and subscribes again; closes a removed one", async () => {
    const first = await registryOf({
      kept: { args: [FIXTURE], prefix: "k_" },
      edited: { args: [FIXTURE], prefix: "e_" },
      removed: { args: [FIXTURE], prefix: "r_" },
    });
    await setSubscription(first, "kept", COUNTER, true);
    await setSubscription(first, "edited", COUNTER, true);
    const removedSession = sessionOf(statusOf(first, "removed")!);

    const second = await registryOf(
      {
        kept: { args: [FIXTURE], prefix: "k_" },
        edited: { args: [FIXTURE, "--edition=2"], prefix: "e_" },
        added: { args: [FIXTURE], prefix: "a_" },
      },
      first,
    );
    // What live reload does once the new registry is in use.
    await first.close?.();

    // Unchanged: the same connection (one handshake in its log), still answering after the old registry closed.
    expect(statusOf(second, "kept")).toBe(statusOf(first, "kept"));
    expect(count(methods(second, "kept"), "initialize")).toBe(1);
    expect(sourceActivity(second, "kept").subscriptions).toEqual([{ uri: COUNTER, updates: 0 }]);
    expect((await readResource(second, "kept", "fixture://notes.txt")).parts[0]).toMatchObject({ kind: "text" });
    expect(listSources(second).find((s) => s.name === "kept")?.reconnected).toBeUndefined();

    // Changed: a new connection whose log goes on from the old one's, marked with why, and the subscription sent again.
    const edited = sourceActivity(second, "edited");
    const log = edited.log.map((e) => e.method);
    expect(count(log, "initialize")).toBe(2);
    const marker = edited.log.find((e) => e.kind === "event");
    expect(marker?.payload).toBe("reconnected: settings changed");
    // Newest first: the new handshake and the subscription come after the marker, the old subscription before it.
    const at = (method: string, from = 0) => log.indexOf(method, from);
    expect(at("resources/subscribe")).toBeLessThan(log.indexOf("reconnect"));
    expect(at("initialize")).toBeLessThan(log.indexOf("reconnect"));
    expect(at("resources/subscribe", log.indexOf("reconnect"))).toBeGreaterThan(log.indexOf("reconnect"));
    expect(edited.log[at("resources/subscribe")]).toMatchObject({ response: { ok: true } });
    expect(edited.subscriptions).toEqual([{ uri: COUNTER, updates: 0 }]);
    expect(listSources(second).find((s) => s.name === "edited")?.reconnected).toMatchObject({ reason: "settings changed" });

    // The restored subscription is live on the new connection: the server's update is counted.
    const bump = second.get("e_bump")!;
    await invoke(bump.resolve(testContext()), {}, testContext());
    await expect.poll(() => sourceActivity(second, "edited").subscriptions[0]?.updates).toBe(1);

    // Added: connected fresh. Removed: closed with the old registry.
    expect(count(methods(second, "added"), "initialize")).toBe(1);
    expect(statusOf(second, "removed")).toBeUndefined();
    await expect.poll(() => removedSession?.connected()).toBe(false);
  });

  it("says so when a subscribed resource is gone after the reconnect, and reconnects an unchanged entry when told why (a sign-out)", async () => {
    const first = await registryOf({ fx: { args: [FIXTURE], prefix: "fx_" }, other: { args: [FIXTURE], prefix: "o_" } });
    await setSubscription(first, "fx", COUNTER, true);
    const second = await registryOf({ fx: { args: [FIXTURE, "--no-counter"], prefix: "fx_" }, other: { args: [FIXTURE], prefix: "o_" } }, first, {
      other: "signed out",
    });
    await first.close?.();

    const fx = sourceActivity(second, "fx");
    expect(fx.subscriptions).toEqual([{ uri: COUNTER, updates: 0, lost: "the server no longer offers it" }]);
    expect(fx.log.filter((e) => e.kind === "event").map((e) => e.payload)).toEqual([
      `${COUNTER}: not subscribed again: the server no longer offers it`,
      "reconnected: settings changed",
    ]);
    // Nothing was asked of the server for it.
    expect(
      count(
        fx.log
          .slice(
            0,
            fx.log.findIndex((e) => e.kind === "event" && e.method === "reconnect"),
          )
          .map((e) => e.method),
        "resources/subscribe",
      ),
    ).toBe(0);

    expect(statusOf(second, "other")).not.toBe(statusOf(first, "other"));
    expect(listSources(second).find((s) => s.name === "other")?.reconnected).toMatchObject({ reason: "signed out" });
  });
});
