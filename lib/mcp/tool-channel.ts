import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  ErrorCode,
  McpError,
  type ElicitRequestFormParams,
  type ProgressToken,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { ElicitResult, LogLevel, ToolContext } from "@/lib/tools/types";
import type { ElicitationRecord } from "./audit";

const SEVERITY: readonly LogLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/** The session's `logging/setLevel`, shared by its calls. */
export interface LogLevelSetting {
  level: LogLevel;
}

export interface ChannelOptions {
  server: Server;
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>;
  toolName: string;
  /** The call's `_meta.progressToken`: progress is sent only when the client asked for it. */
  progressToken?: ProgressToken;
  logLevel: LogLevelSetting;
  /** How long the person has to answer an elicitation (chat.approvalTimeoutSeconds). */
  timeoutMs: number;
  /** Filled with each question and its answer, for the call's audit. */
  elicitations: ElicitationRecord[];
  log?: (message: string) => void;
}

/**
 * What a tool called over MCP gets as `ctx.progress`, `ctx.log` and `ctx.elicit`. Everything
 * travels on the call's own stream (relatedRequestId), so over HTTP it reaches the client that
 * made the call; nothing here throws into the tool.
 */
export function callChannel(options: ChannelOptions): Pick<ToolContext, "progress" | "log" | "elicit"> {
  const { extra } = options;
  const send = (notification: ServerNotification) =>
    void extra
      .sendNotification(notification)
      .catch((error: Error) => options.log?.(`toolroom mcp: ${options.toolName} could not notify the client: ${error.message}`));
  return {
    progress: (progress, total, message) => {
      if (options.progressToken === undefined) return;
      send({
        method: "notifications/progress",
        params: { progressToken: options.progressToken, progress, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) },
      });
    },
    log: (level, data) => {
      if (SEVERITY.indexOf(level) < SEVERITY.indexOf(options.logLevel.level)) return;
      send({ method: "notifications/message", params: { level, logger: options.toolName, data } });
    },
    elicit: async (message, schema) => {
      // Written down when asked: a call the client cancels is recorded at once, before any answer.
      const index =
        options.elicitations.push({ message, action: "not-admitted", by: "aborted", reason: "no answer before the call ended", at: new Date().toISOString() }) -
        1;
      const { answer, by } = await elicit(options, message, schema);
      options.elicitations[index] = {
        message,
        action: answer.action,
        by,
        ...(answer.action === "accept" ? { content: answer.content } : {}),
        ...(answer.action === "not-admitted" ? { reason: answer.reason } : {}),
        at: new Date().toISOString(),
      };
      return answer;
    },
  };
}

async function elicit(
  options: ChannelOptions,
  message: string,
  schema: Parameters<NonNullable<ToolContext["elicit"]>>[1],
): Promise<{ answer: ElicitResult; by: ElicitationRecord["by"] }> {
  // As for confirmation: a client that cannot ask its person admits nothing.
  if (!options.server.getClientCapabilities()?.elicitation)
    return { answer: { action: "not-admitted", reason: "the MCP client cannot ask a person (no elicitation)" }, by: "unsupervised" };
  try {
    const result = await options.server.elicitInput(
      // The kit's schema type is looser than the SDK's union of field shapes; the client checks the form.
      { mode: "form", message, requestedSchema: schema as ElicitRequestFormParams["requestedSchema"] },
      { signal: options.extra.signal, timeout: options.timeoutMs, relatedRequestId: options.extra.requestId },
    );
    if (result.action === "accept") return { answer: { action: "accept", content: result.content ?? {} }, by: "user" };
    return { answer: { action: result.action }, by: "user" };
  } catch (error) {
    if (options.extra.signal.aborted) return { answer: { action: "not-admitted", reason: "the client cancelled the call" }, by: "aborted" };
    if (error instanceof McpError && error.code === Number(ErrorCode.RequestTimeout))
      return { answer: { action: "not-admitted", reason: "nobody answered in time" }, by: "timeout" };
    // The client failed to ask, or answered what the form refuses (the SDK checks an accepted answer
    // against the schema): the client's doing, not its person's.
    options.log?.(`toolroom mcp: ${options.toolName} asked the client and it failed: ${(error as Error).message}`);
    return { answer: { action: "not-admitted", reason: `the client could not ask: ${(error as Error).message}` }, by: "client" };
  }
}
