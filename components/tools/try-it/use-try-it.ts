"use client";

import { useCallback, useRef, useState } from "react";
import type { ApprovalRequest } from "@/components/approvals/approval-dialog";
import type { TryItResponse } from "@/lib/server/try-it/try-it";
import { FetchError, fetchJson } from "@/lib/client/fetch-json";
import type { RecentCall } from "./recent-calls";

export type Outcome = Extract<TryItResponse, { status: "done" | "not-admitted" | "error" }>;

export interface TryItState {
  running: boolean;
  /** The id questions of the running call wait under (`try-it:<id>` on the server). */
  elicitScope: string | null;
  startedAt: number | null;
  approval: ApprovalRequest | null;
  /** The input waiting for approval: sent back byte for byte with the decision. */
  pendingInput: unknown;
  deciding: boolean;
  result: Outcome | null;
  serverIssues: { path: string; message: string }[];
}

const IDLE: TryItState = {
  running: false,
  elicitScope: null,
  startedAt: null,
  approval: null,
  pendingInput: undefined,
  deciding: false,
  result: null,
  serverIssues: [],
};

/** A refusal that is itself a try-it outcome (422 invalid input) is shown as one; any other failure as its message. */
async function post(tool: string, body: unknown): Promise<TryItResponse> {
  try {
    return await fetchJson<TryItResponse>(`/api/tools/${encodeURIComponent(tool)}/invoke`, { method: "POST", json: body });
  } catch (error) {
    if (error instanceof FetchError && (error.body as { status?: unknown } | undefined)?.status === "invalid") return error.body as TryItResponse;
    return { status: "error", error: error instanceof Error ? error.message : String(error), code: error instanceof FetchError ? error.code : "unreachable" };
  }
}

function recentOf(input: unknown, r: Outcome): Omit<RecentCall, "id" | "at"> {
  if (r.status === "done") return { input, outcome: r.isError ? "error" : "done", durationMs: r.durationMs, preview: r.text.slice(0, 160) };
  if (r.status === "not-admitted") return { input, outcome: r.why, preview: r.text.slice(0, 160) };
  return { input, outcome: "error", preview: r.error.slice(0, 160) };
}

/** Try-it's request cycle: run, maybe wait for a human, show the outcome, remember the call. */
export function useTryIt(tool: string, remember: (call: Omit<RecentCall, "id" | "at">) => void) {
  const [state, setState] = useState<TryItState>(IDLE);
  const deciding = useRef(false);

  const finish = useCallback(
    (input: unknown, r: TryItResponse) => {
      if (r.status === "invalid") {
        setState({ ...IDLE, serverIssues: r.issues, result: { status: "error", error: `invalid input: ${r.message}`, code: "invalid_input" } });
        return;
      }
      if (r.status === "approval-required") {
        const { status: _s, ...request } = r;
        setState({ ...IDLE, running: false, approval: request, pendingInput: input });
        return;
      }
      setState({ ...IDLE, result: r });
      remember(recentOf(input, r));
    },
    [remember],
  );

  const run = useCallback(
    async (input: unknown) => {
      const elicitScope = crypto.randomUUID();
      setState({ ...IDLE, running: true, startedAt: Date.now(), elicitScope });
      finish(input, await post(tool, { input, elicitScope }));
    },
    [tool, finish],
  );

  const decide = useCallback(
    async (decision: "approve" | "deny", reason?: string, editedInput?: unknown) => {
      const { approval, pendingInput } = state;
      // One answer per approval: Esc, a click and the countdown's expiry may all race here.
      if (!approval || deciding.current) return;
      deciding.current = true;
      const elicitScope = crypto.randomUUID();
      setState((s) => ({ ...s, deciding: true, running: decision === "approve", startedAt: Date.now(), elicitScope }));
      try {
        const r = await post(tool, {
          elicitScope,
          input: pendingInput,
          approvalId: approval.approvalId,
          decision,
          ...(reason ? { reason } : {}),
          ...(editedInput !== undefined ? { editedInput } : {}),
        });
        finish(editedInput ?? pendingInput, r);
      } finally {
        deciding.current = false;
      }
    },
    [tool, state, finish],
  );

  return { state, run, approve: (editedInput?: unknown) => decide("approve", undefined, editedInput), deny: (reason?: string) => decide("deny", reason) };
}
