import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { SessionEventStore } from "./event-store";

const message = (id: number): JSONRPCMessage => ({ jsonrpc: "2.0", id, result: {} });

describe("SessionEventStore", () => {
  it("replays only the later events of the same stream", async () => {
    const store = new SessionEventStore();
    const first = await store.storeEvent("a", message(1));
    await store.storeEvent("b", message(2));
    await store.storeEvent("a", message(3));
    const sent: unknown[] = [];
    const stream = await store.replayEventsAfter(first, { send: async (_id, m) => void sent.push(m) });
    expect(stream).toBe("a");
    expect(sent).toEqual([message(3)]);
    expect(await store.getStreamIdForEventId(first)).toBe("a");
  });

  it("forgets the oldest events past its limit, and refuses to resume from them", async () => {
    const store = new SessionEventStore(2);
    const old = await store.storeEvent("a", message(1));
    await store.storeEvent("a", message(2));
    await store.storeEvent("a", message(3));
    await expect(store.replayEventsAfter(old, { send: async () => {} })).rejects.toThrow(/Unknown or expired/);
  });
});
