import { describe, expect, it } from "vitest";
import type { RpcEntry } from "@/lib/mcp/client-log";
import { outcomeLabel, rpcState } from "./rpc-outcome";

const request = (response?: RpcEntry["response"]): RpcEntry => ({
  seq: 1,
  at: 0,
  direction: "out",
  kind: "request",
  method: "tools/call",
  id: 1,
  payload: "{}",
  ...(response ? { response } : {}),
});
const answer = { at: 0, durationMs: 3, payload: "{}" };

describe("a JSON-RPC log entry's outcome", () => {
  it("is waiting only while an answer may still come: cancelled and failed requests are closed", () => {
    expect(rpcState(request())).toBe("pending");
    expect(rpcState(request({ ...answer, ok: true }))).toBe("ok");
    expect(rpcState(request({ ...answer, ok: false }))).toBe("error");
    expect(rpcState(request({ ...answer, ok: false, closed: "cancelled" }))).toBe("cancelled");
    expect(rpcState(request({ ...answer, ok: false, closed: "failed", status: 401 }))).toBe("failed");
  });

  it("is an event for Toolroom's own lines (a reconnect), which wait for nothing", () => {
    expect(rpcState({ ...request(), kind: "event", method: "reconnect", payload: "reconnected: settings changed" })).toBe("event");
  });

  it("says why there is no answer, with the HTTP status when there was one", () => {
    expect(outcomeLabel({ ...answer, ok: true })).toBe("");
    expect(outcomeLabel({ ...answer, ok: false })).toBe("error · ");
    expect(outcomeLabel({ ...answer, ok: false, closed: "cancelled" })).toBe("cancelled · ");
    expect(outcomeLabel({ ...answer, ok: false, closed: "failed", status: 401 })).toBe("failed (401) · ");
    expect(outcomeLabel({ ...answer, ok: false, closed: "failed" })).toBe("failed · ");
  });
});
