import type { LanguageModelV4 } from "@ai-sdk/provider";
import {
  convertToModelMessages,
  isStepCount,
  jsonSchema,
  streamText,
  tool,
  toUIMessageStream,
  wrapLanguageModel,
  type ToolApprovalStatus,
  type ToolSet,
  type UIMessage,
  type UIMessageChunk,
} from "ai";
import { needsConfirmation, notAdmittedText } from "@/lib/tools/confirm";
import { invoke, type InvokeResult } from "@/lib/tools/invoke";
import type { Registry, RegisteredTool } from "@/lib/tools/registry-types";
import type { ToolContext, ToolDefinition } from "@/lib/tools/types";
import { callKey, callsSinceLastUser, isToolPart, rewriteDenials, toolNameOf } from "./history";
import { INVALID_CALL_TOOL_NAME, invalidCallTool } from "./invalid-call-tool";
import { readMetadata, withCallMeta, type ChatMessageMetadata, type Decision } from "./metadata";
import { textModeMiddleware } from "./text-mode";
import type { PromptTool, TextProtocol } from "./text-protocol/types";

export const GRANT_REASON = "auto-approved by grant";
/** Shown as a timed-out approval's reason; never read back: the call's recorded decision says it timed out. */
export const TIMEOUT_REASON = "timed out";

export const SYSTEM_PROMPT = `You are Toolroom's assistant: you help a developer explore their source tree and run artifacts with the tools you are given.
Call a tool when it would answer the question better than guessing; after a result, answer briefly and concretely.
A result starting with "Error:" or "Not run:" means the call did not succeed: say so, and do not pretend it did.`;

export interface EngineHooks {
  onToolStart?(call: { toolCallId: string; tool: RegisteredTool; input: unknown }): Promise<void> | void;
  onToolFinish?(call: { toolCallId: string; tool: RegisteredTool; input: unknown; result: InvokeResult }): Promise<void> | void;
  onAutoDecision?(call: { toolCallId: string; tool: RegisteredTool; input: unknown; decision: Decision; text?: string }): Promise<void> | void;
  onStepEnd?(message: UIMessage): Promise<void> | void;
  onEnd?(message: UIMessage, info: { aborted: boolean; error?: string }): Promise<void> | void;
}

export interface ChatTurn {
  chatId: string;
  /** The whole history, approval responses already verified and applied by the server. */
  messages: UIMessage[];
  model: LanguageModelV4;
  toolMode: "native" | "text";
  protocol: TextProtocol;
  supervised: boolean;
  maxSteps: number;
  registry: Registry;
  /** Tools the person approved "for this chat". */
  grants: ReadonlySet<string>;
  approvalSecret?: string;
  signal: AbortSignal;
  /** Seconds a person has to answer an approval request. */
  approvalTimeoutSeconds: number;
  /** Builds the ToolContext for one tool in this chat. */
  contextFor(toolName: string, signal: AbortSignal): ToolContext;
  guardFile?: string;
  hooks?: EngineHooks;
  /** Maps a provider error to what the person sees (keys scrubbed). */
  describeError?(error: unknown): string;
  generateMessageId?: () => string;
}

/** Turns provider errors into one readable line: status, provider message, never a stack. */
export function providerErrorText(error: unknown): string {
  if (error instanceof Error) {
    const status = (error as { statusCode?: number }).statusCode;
    const body = (error as { responseBody?: string }).responseBody;
    const detail = body ? ` — ${body.slice(0, 300)}` : "";
    return `${status ? `Provider error ${status}: ` : "Provider error: "}${error.message}${detail}`;
  }
  return `Provider error: ${String(error)}`;
}

/**
 * One turn of a chat through `streamText`, in either tool mode: text mode is only a middleware on
 * the model, so tools, approvals, persistence and the UI stream are the same code path.
 */
export async function runChatTurn(turn: ChatTurn): Promise<ReadableStream<UIMessageChunk>> {
  const enabled = turn.registry.tools.filter((t) => t.enabled);
  const definitions = new Map<string, { registered: RegisteredTool; tool: ToolDefinition; ctx: ToolContext }>();
  for (const registered of enabled) {
    const ctx = turn.contextFor(registered.name, turn.signal);
    definitions.set(registered.name, { registered, tool: registered.resolve(ctx), ctx });
  }

  const lastMessage = turn.messages.at(-1);
  let metadata: ChatMessageMetadata = lastMessage?.role === "assistant" ? readMetadata(lastMessage.metadata) : {};
  const alreadyMade = callsSinceLastUser(turn.messages);

  const tools: ToolSet = {};
  for (const [name, { registered, tool: definition, ctx }] of definitions) {
    tools[name] = tool({
      description: registered.description,
      inputSchema: jsonSchema(registered.inputSchema as Parameters<typeof jsonSchema>[0]),
      execute: async (input: unknown, { toolCallId, abortSignal }) => {
        const key = callKey(name, input);
        if (alreadyMade.has(key)) return `Already made: ${name} was called with these exact arguments earlier in this answer; use that result.`;
        await turn.hooks?.onToolStart?.({ toolCallId, tool: registered, input });
        const result = await invoke(definition, input, { ...ctx, signal: abortSignal ?? turn.signal }, { guardFile: turn.guardFile });
        alreadyMade.set(key, result.text);
        metadata = withCallMeta(metadata, toolCallId, { sourcePackage: registered.sourcePackage, durationMs: result.durationMs, madeChanges: result.madeChanges });
        await turn.hooks?.onToolFinish?.({ toolCallId, tool: registered, input, result });
        return result.text;
      },
    });
  }
  if (turn.toolMode === "text") {
    tools[INVALID_CALL_TOOL_NAME] = tool({
      description: invalidCallTool.description,
      inputSchema: jsonSchema({ type: "object", properties: {}, additionalProperties: true }),
      execute: async (input: unknown) => (await invoke(invalidCallTool, input, turn.contextFor(INVALID_CALL_TOOL_NAME, turn.signal))).text,
    });
  }

  const promptTools: PromptTool[] = enabled.map((t) => ({ name: t.name, description: t.description, inputJsonSchema: t.inputSchema, sourcePackage: t.sourcePackage, builtin: t.origin === "builtin" }));
  const model = turn.toolMode === "text" ? wrapLanguageModel({ model: turn.model, middleware: textModeMiddleware({ protocol: turn.protocol, tools: promptTools }) }) : turn.model;

  const approvalFor = async (toolCallId: string, toolName: string, input: unknown): Promise<ToolApprovalStatus> => {
    // A call a person already decided (the SDK asks again when it resumes) keeps that decision.
    if (metadata.calls?.[toolCallId]?.decision) return "not-applicable";
    const entry = definitions.get(toolName);
    if (!entry || !(await needsConfirmation(entry.tool, input, entry.ctx))) return "not-applicable";
    const at = new Date().toISOString();
    if (!turn.supervised) {
      const text = notAdmittedText(entry.tool, input, { kind: "unsupervised" });
      const decision: Decision = { by: "unsupervised", decision: "not-admitted", at };
      metadata = withCallMeta(metadata, toolCallId, { sourcePackage: entry.registered.sourcePackage, decision });
      await turn.hooks?.onAutoDecision?.({ toolCallId, tool: entry.registered, input, decision, text });
      return { type: "denied", reason: text };
    }
    if (turn.grants.has(toolName)) {
      const decision: Decision = { by: "grant", decision: "approved", reason: GRANT_REASON, at };
      metadata = withCallMeta(metadata, toolCallId, { sourcePackage: entry.registered.sourcePackage, decision });
      await turn.hooks?.onAutoDecision?.({ toolCallId, tool: entry.registered, input, decision });
      return { type: "approved", reason: GRANT_REASON };
    }
    const expiresAt = new Date(Date.now() + turn.approvalTimeoutSeconds * 1000).toISOString();
    metadata = withCallMeta(metadata, toolCallId, { sourcePackage: entry.registered.sourcePackage, expiresAt });
    return "user-approval";
  };

  // The model reads the tool's not-admitted text for a denied call; the person's reason goes into it.
  const denialText = new Map<string, string>();
  for (const message of turn.messages) {
    const calls = readMetadata(message.metadata).calls;
    for (const part of message.parts) {
      if (!isToolPart(part) || !part.approval || part.approval.approved !== false) continue;
      const entry = definitions.get(toolNameOf(part));
      if (!entry) continue;
      // Whether the call timed out is the server's recorded decision; the reason is a person's free
      // text, and a person may well type "timed out".
      const timedOut = calls?.[part.toolCallId]?.decision?.decision === "timed-out";
      const why = timedOut ? ({ kind: "timed-out" } as const) : ({ kind: "denied", reason: part.approval.reason } as const);
      denialText.set(part.toolCallId, notAdmittedText(entry.tool, part.input, why));
    }
  }
  const modelMessages = rewriteDenials(await convertToModelMessages(turn.messages, { tools, ignoreIncompleteToolCalls: true }), (toolCallId) => denialText.get(toolCallId));

  let streamError: string | undefined;
  const result = streamText({
    model,
    tools,
    instructions: SYSTEM_PROMPT,
    messages: modelMessages,
    stopWhen: isStepCount(turn.maxSteps),
    toolApproval: ({ toolCall }) => approvalFor(toolCall.toolCallId, toolCall.toolName, toolCall.input),
    experimental_toolApprovalSecret: turn.approvalSecret,
    abortSignal: turn.signal,
    onError: ({ error }) => {
      streamError = (turn.describeError ?? providerErrorText)(error);
    },
  });

  let answeredBy: string | undefined;
  return toUIMessageStream({
    stream: result.stream,
    tools,
    originalMessages: turn.messages,
    generateMessageId: turn.generateMessageId,
    onError: (error) => (turn.describeError ?? providerErrorText)(error),
    messageMetadata: ({ part }) => {
      if (part.type === "finish-step") answeredBy = part.response.modelId;
      if (part.type === "start" || part.type === "finish" || part.type === "finish-step") {
        return { ...metadata, ...(answeredBy ? { model: answeredBy } : {}), ...(streamError ? { error: streamError } : {}) };
      }
      return undefined;
    },
    onStepEnd: async ({ responseMessage }) => {
      await turn.hooks?.onStepEnd?.(responseMessage);
    },
    onEnd: async ({ responseMessage, isAborted }) => {
      const final = { ...responseMessage, metadata: { ...readMetadata(responseMessage.metadata), ...metadata, ...(answeredBy ? { model: answeredBy } : {}), ...(streamError ? { error: streamError } : {}) } };
      await turn.hooks?.onEnd?.(final, { aborted: isAborted, error: streamError });
    },
  });
}
