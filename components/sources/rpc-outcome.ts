import type { RpcEntry } from "@/lib/mcp/client-log";

export type RpcState = "event" | "notification" | "pending" | "ok" | "error" | "cancelled" | "failed";

/** What came of an entry: a request that will never be answered is closed, not left waiting. */
export function rpcState(entry: RpcEntry): RpcState {
  if (entry.kind === "event" || entry.kind === "notification") return entry.kind;
  if (!entry.response) return "pending";
  return entry.response.closed ?? (entry.response.ok ? "ok" : "error");
}

/** The words before a request's duration: nothing for an answer, else why there is none. */
export function outcomeLabel(response: NonNullable<RpcEntry["response"]>): string {
  if (response.closed === "cancelled") return "cancelled · ";
  if (response.closed === "failed") return response.status ? `failed (${response.status}) · ` : "failed · ";
  return response.ok ? "" : "error · ";
}
