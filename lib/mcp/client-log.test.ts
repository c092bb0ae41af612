import { describe, expect, it } from "vitest";
import { RpcLog } from "./client-log";

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
});
