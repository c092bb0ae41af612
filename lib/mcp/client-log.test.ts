import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { describe, expect, it } from "vitest";
import { RecordingTransport, RpcLog } from "./client-log";

describe("a server's JSON-RPC log", () => {
  it("keeps the newest entries up to its size, joins answers with their duration, and cuts long payloads", () => {
    let clock = 0;
    const log = new RpcLog(3, () => clock);
    log.record("out", { jsonrpc: "2.0", id: 1, method: "a" });
    log.record("out", { jsonrpc: "2.0", id: 2, method: "b", params: { text: "x".repeat(5000) } });
    clock = 12.34;
    log.record("in", { jsonrpc: "2.0", id: 2, result: {} });
    log.record("in", { jsonrpc: "2.0", id: 1, method: "elicitation/create" });
    log.record("out", { jsonrpc: "2.0", id: 1, error: { code: -1, message: "no" } });
    log.record("in", { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "hi" } });
    const entries = log.list();
    expect(entries.map((e) => [e.direction, e.method])).toEqual([
      ["in", "notifications/message"],
      ["in", "elicitation/create"],
      ["out", "b"],
    ]);
    expect(entries[1]?.response).toMatchObject({ ok: false, durationMs: 0 });
    expect(entries[2]?.response).toMatchObject({ ok: true, durationMs: 12.3 });
    expect(entries[2]?.payload).toMatch(/… \(\d+ characters\)$/);
    // The dropped request's late answer joins nothing.
    log.record("in", { jsonrpc: "2.0", id: 1, result: {} });
    expect(log.list()).toHaveLength(3);
  });

  it("closes a request its sender cancelled as cancelled, not waiting for an answer that will not come", () => {
    let clock = 0;
    const log = new RpcLog(10, () => clock);
    log.record("out", { jsonrpc: "2.0", id: 7, method: "tools/call" });
    clock = 5;
    log.record("out", { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7, reason: "the person stopped it" } });
    const call = log.list().find((e) => e.method === "tools/call");
    expect(call?.response).toMatchObject({ ok: false, closed: "cancelled", durationMs: 5, payload: expect.stringContaining("the person stopped it") });
    // A late answer does not reopen it.
    log.record("in", { jsonrpc: "2.0", id: 7, result: {} });
    expect(log.list().find((e) => e.method === "tools/call")?.response?.closed).toBe("cancelled");
  });

  it("closes a request whose sending failed (a 401, a transport error) as failed, with the HTTP status", async () => {
    const log = new RpcLog();
    const refusals = [
      new UnauthorizedError("Unauthorized"),
      Object.assign(new Error("Streamable HTTP error: Bad Gateway"), { code: 502 }),
      new Error("socket hang up"),
    ];
    const inner = {
      start: async () => {},
      close: async () => {},
      send: async () => {
        throw refusals.shift() as Error;
      },
    } as unknown as Transport;
    const transport = new RecordingTransport(inner, log);
    for (const id of [1, 2, 3]) await expect(transport.send({ jsonrpc: "2.0", id, method: "tools/list" })).rejects.toThrow();
    expect(log.list().map((e) => [e.id, e.response?.closed, e.response?.status])).toEqual([
      [3, "failed", undefined],
      [2, "failed", 502],
      [1, "failed", 401],
    ]);
    expect(log.list()[2]?.response?.payload).toContain("Unauthorized");
  });

  it("closes what was still waiting when the connection closes", async () => {
    const log = new RpcLog();
    const inner = { start: async () => {}, close: async () => {}, send: async () => {} } as unknown as Transport;
    new RecordingTransport(inner, log);
    log.record("out", { jsonrpc: "2.0", id: 1, method: "resources/read" });
    inner.onclose?.();
    expect(log.list()[0]?.response).toMatchObject({ ok: false, closed: "failed", payload: expect.stringContaining("connection closed") });
  });

  it("goes on across a reconnect: the old entries, the old connection's waiting requests closed, a line saying why; then the new connection's own ids", () => {
    let clock = 0;
    const old = new RpcLog(10, () => clock);
    old.record("out", { jsonrpc: "2.0", id: 0, method: "initialize" });
    old.record("in", { jsonrpc: "2.0", id: 0, result: {} });
    old.record("out", { jsonrpc: "2.0", id: 1, method: "resources/read" });
    clock = 4;
    const next = RpcLog.continuing(old, "settings changed");
    // The new connection's ids start again at 0: its answer joins its own request, not the old one.
    next.record("out", { jsonrpc: "2.0", id: 0, method: "initialize" });
    clock = 6;
    next.record("in", { jsonrpc: "2.0", id: 0, result: {} });
    const entries = next.list();
    expect(entries.map((e) => [e.kind, e.method])).toEqual([
      ["request", "initialize"],
      ["event", "reconnect"],
      ["request", "resources/read"],
      ["request", "initialize"],
    ]);
    expect(entries[0]?.response).toMatchObject({ ok: true, durationMs: 2 });
    expect(entries[1]?.payload).toBe("reconnected: settings changed");
    expect(entries[2]?.response).toMatchObject({ ok: false, closed: "failed", durationMs: 4, payload: expect.stringContaining("settings changed") });
    expect(new Set(entries.map((e) => e.seq)).size).toBe(4);
    // The old log is the old connection's: what it records later does not show up in the new one.
    old.record("in", { jsonrpc: "2.0", id: 1, result: {} });
    expect(next.list()[2]?.response?.closed).toBe("failed");
  });
});
