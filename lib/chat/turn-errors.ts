import {
  InvalidMessageRoleError,
  InvalidPromptError,
  InvalidToolApprovalError,
  InvalidToolInputError,
  MessageConversionError,
  MissingToolResultsError,
  NoSuchToolError,
  RetryError,
  ToolCallNotFoundForApprovalError,
  ToolCallRepairError,
} from "ai";

/** Errors that came out of the model's own call or stream (marked by `providerStreamMiddleware`). */
const fromProvider = new WeakSet<object>();

export function markProviderError(error: unknown): unknown {
  if (typeof error === "object" && error !== null) fromProvider.add(error);
  return error;
}

function isProviderError(error: unknown): boolean {
  if (RetryError.isInstance(error)) return isProviderError(error.lastError);
  return typeof error === "object" && error !== null && fromProvider.has(error);
}

function detail(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const status = (error as { statusCode?: number }).statusCode;
  const body = (error as { responseBody?: string }).responseBody;
  return `${status ? `${status}: ` : ""}${error.message}${body ? ` — ${body.slice(0, 300)}` : ""}`;
}

/**
 * One readable line for an error that ended (or broke into) a turn, labelled by whose fault it
 * is: only what the model's provider sent or failed to send is a "Provider error"; a call of a
 * tool that does not exist or with input its schema refuses is the model's call, and a history
 * the SDK cannot convert is the stored chat's. Never a stack.
 */
export function turnErrorText(error: unknown, modelId: string): string {
  if (NoSuchToolError.isInstance(error) || InvalidToolInputError.isInstance(error) || ToolCallRepairError.isInstance(error)) {
    return `Tool call error: ${detail(error)}`;
  }
  if (
    MessageConversionError.isInstance(error) ||
    InvalidPromptError.isInstance(error) ||
    InvalidMessageRoleError.isInstance(error) ||
    MissingToolResultsError.isInstance(error) ||
    ToolCallNotFoundForApprovalError.isInstance(error) ||
    InvalidToolApprovalError.isInstance(error)
  ) {
    return `History error (the stored conversation cannot be sent to the model): ${detail(error)}`;
  }
  if (isProviderError(error)) return `Provider error (${modelId}): ${detail(error)}`;
  return `Error: ${detail(error)}`;
}

/** What the person sees when the SDK's `timeout` ended a step; `reason` is its abort reason. */
export function timeoutText(reason: unknown, modelId: string, limits: { idleSeconds: number; stepSeconds: number }): string | undefined {
  if (!(reason instanceof Error) || reason.name !== "TimeoutError") return undefined;
  // The SDK labels its timeouts "Step timeout …", "First chunk timeout …", "Chunk timeout …".
  if (reason.message.startsWith("Step"))
    return `Timeout: ${modelId} did not finish a step within ${limits.stepSeconds} s (chat.stepTimeoutSeconds); the answer stops here.`;
  return `Timeout: ${modelId} sent no data for ${limits.idleSeconds} s (chat.streamIdleTimeoutSeconds); the answer stops here.`;
}
