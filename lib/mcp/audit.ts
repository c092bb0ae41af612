import type { Decision } from "@/lib/tools/decision";
import type { RegisteredTool } from "@/lib/tools/registry-types";

/** One tool call made by an MCP client, as the approval audit stores it. */
export interface McpCallRecord {
  /** The connected client, from its `initialize` (name and version). */
  client: string;
  /** Stable per connection, so one session's calls are kept together. */
  sessionKey: string;
  tool: RegisteredTool;
  input: unknown;
  text: string;
  isError: boolean;
  madeChanges: boolean;
  durationMs: number | null;
  /** Present when the call needed a human. */
  decision?: Decision;
  /** What the tool asked the person while it ran (ctx.elicit), and what they answered. */
  elicitations?: ElicitationRecord[];
  /** The client cancelled the call (notifications/cancelled) before it finished. */
  cancelled?: boolean;
  startedAt: Date;
}

export interface ElicitationRecord {
  message: string;
  action: "accept" | "decline" | "cancel" | "not-admitted";
  /**
   * Who answered: the client's person; the client itself (its answer failed the form, or asking
   * failed); or nobody (no answer in time, the call was cancelled, the client cannot ask anyone).
   */
  by: "user" | "client" | "timeout" | "aborted" | "unsupervised";
  /** What was sent back, when accepted. */
  content?: Record<string, unknown>;
  /** Why the question was not answered by a person. */
  reason?: string;
  at: string;
}

/** Where MCP calls and their decisions are recorded; failures to record never fail the call. */
export interface McpAudit {
  record(call: McpCallRecord): Promise<void>;
}

/**
 * For `toolroom mcp` (stdio), which runs without the web app's database: one JSON line per call
 * on stderr, which MCP hosts keep in their server logs.
 */
export function logMcpAudit(log: (line: string) => void): McpAudit {
  return {
    async record(call) {
      log(
        JSON.stringify({
          audit: "toolroom-mcp-call",
          client: call.client,
          tool: call.tool.name,
          source: call.tool.sourcePackage,
          input: call.input,
          isError: call.isError,
          madeChanges: call.madeChanges,
          durationMs: call.durationMs,
          decision: call.decision ?? null,
          elicitations: call.elicitations ?? [],
          // As the HTTP audit's state: a call the client cancelled is not an ordinary error.
          cancelled: call.cancelled === true,
          at: call.startedAt.toISOString(),
        }),
      );
    },
  };
}
