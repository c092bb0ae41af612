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
  type Telemetry,
  type ToolSet,
  type UIMessage,
  type UIMessageChunk,
} from "ai";
import { inlineTextAttachments } from "./attachments";
import { acceptsMediaResults, mediaToolOutput } from "./media-output";
import { AnswerProgress, PROGRESS_BYTES, PROGRESS_INTERVAL_MS } from "./answer-progress";
import { ruleCallOf, ruleDecisionText, type RuleDecider } from "@/lib/tools/approval-rules";
import { needsConfirmation, notAdmittedText } from "@/lib/tools/confirm";
import { invoke, type InvokeResult } from "@/lib/tools/invoke";
import { validateInput } from "@/lib/tools/schema";
import type { Registry, RegisteredTool } from "@/lib/tools/registry-types";
import type { ToolContext, ToolDefinition } from "@/lib/tools/types";
import { callKey, callsSinceLastUser, isToolPart, rewriteDenials, toolNameOf } from "./history";
import { INVALID_CALL_TOOL_NAME, invalidCallTool } from "./invalid-call-tool";
import { readMetadata, withCallMeta, type CallMeta, type ChatMessageMetadata, type Decision, type MediaPart } from "./metadata";
import { deltaBatchMiddleware } from "./delta-batch";
import { providerStreamMiddleware } from "./provider-stream";
import { toolModeModel } from "./tool-mode-model";
import { timeoutText, turnErrorText } from "./turn-errors";
import { pumpToEnd } from "./turn-stream";
import { mergeSummaries, type TurnTraceHooks } from "./turn-summary";
import type { PromptTool, TextProtocol } from "./text-protocol/types";

/** The images and audio of a result (MCP content), kept on the call for the card and the model. */
function mediaOf(result: InvokeResult): { media?: MediaPart[] } {
  const media = (result.content ?? []).flatMap((p) => (p.type === "image" || p.type === "audio" ? [{ type: p.type, data: p.data, mimeType: p.mimeType }] : []));
  return media.length ? { media } : {};
}

export const GRANT_REASON = "auto-approved by grant";
/** Shown as a timed-out approval's reason; never read back: the call's recorded decision says it timed out. */
export const TIMEOUT_REASON = "timed out";

/** What the model reads before the result of a call whose arguments the person changed. */
export function editedNote(proposed: unknown): string {
  return `Note: the person edited the arguments before approving; this result is for the edited arguments, not the ones you proposed (${JSON.stringify(proposed)}).`;
}

export const SYSTEM_PROMPT = `You are Toolroom's assistant: you help a developer explore their source tree and run artifacts with the tools you are given.
Call a tool when it would answer the question better than guessing; after a result, answer briefly and concretely.
A result starting with "Error:" or "Not run:" means the call did not succeed: say so, and do not pretend it did.`;

/** What the person (and `toolroom ask`, and an eval) is told when the provider refused to answer. */
export function refusalText(modelName: string): string {
  return `Refused: ${modelName} declined to answer (the provider's content filter or refusal).`;
}

export interface EngineHooks {
  onToolStart?(call: { toolCallId: string; tool: RegisteredTool; input: unknown }): Promise<void> | void;
  /** May return facts about the call the engine cannot see (the questions it asked the person) for its metadata. */
  onToolFinish?(call: {
    toolCallId: string;
    tool: RegisteredTool;
    input: unknown;
    result: InvokeResult;
  }): Promise<Partial<CallMeta> | void> | Partial<CallMeta> | void;
  onAutoDecision?(call: { toolCallId: string; tool: RegisteredTool; input: unknown; decision: Decision; text?: string }): Promise<void> | void;
  onStepEnd?(message: UIMessage): Promise<void> | void;
  /** The answer so far, at most every PROGRESS_INTERVAL_MS or PROGRESS_BYTES of text; not awaited. */
  onProgress?(message: UIMessage): void;
  /**
   * Returns an error to show after the answer (e.g. it could not be stored). `timedOut`: the limit
   * that ended the turn (also in `error`); `refused`: the provider refused to answer.
   */
  onEnd?(message: UIMessage, info: { aborted: boolean; error?: string; timedOut?: string; refused?: string }): Promise<string | void> | string | void;
}

/** Where a running call is listed, so a person can watch its progress and cancel it. */
export interface RunningCallHooks {
  start(toolCallId: string, toolName: string, cancel: () => void): { progress(progress: number, total?: number, message?: string): void; end(): void };
}

/** The text the model reads after the person cancelled a call. */
export const CANCELLED_TEXT = "Error: the person cancelled this call before it finished.";

export interface ChatTurn {
  chatId: string;
  /** The whole history, approval responses already verified and applied by the server. */
  messages: UIMessage[];
  model: LanguageModelV4;
  toolMode: "native" | "text";
  /** The model's `toolMode: auto`: start in `toolMode`, switch when tools are refused or a text reply is empty. */
  autoToolMode?: boolean;
  protocol: TextProtocol;
  supervised: boolean;
  maxSteps: number;
  registry: Registry;
  /** Tools the person approved "for this chat"; a loader is called only when a tool asks for approval. */
  grants: ReadonlySet<string> | (() => Promise<ReadonlySet<string>>);
  /** Approval rules (settings, then the UI's): checked before the tool's own `confirm.evaluate`. */
  rules?: RuleDecider;
  approvalSecret?: string;
  signal: AbortSignal;
  /** Seconds a person has to answer an approval request. */
  approvalTimeoutSeconds: number;
  /** Seconds the model may send nothing (before its first output, or between two) before the turn ends with an error. */
  streamIdleTimeoutSeconds: number;
  /** Seconds one step (the model's answer and the tools it runs) may take. */
  stepTimeoutSeconds: number;
  /** Builds the ToolContext for one tool in this chat. */
  contextFor(toolName: string, signal: AbortSignal): ToolContext;
  guardFile?: string;
  hooks?: EngineHooks;
  /** Lists running calls for their cards (progress, Cancel). */
  runningCalls?: RunningCallHooks;
  /** Records the turn's trace (steps, timings, usage, the raw exchange); the caller stores it. */
  trace?: TurnTraceHooks;
  /** More AI SDK telemetry integrations for this turn (the OTLP export). */
  telemetry?: Telemetry[];
  /** Maps an error to what the person sees (keys scrubbed); default `turnErrorText`. */
  describeError?: (error: unknown) => string;
  generateMessageId?: () => string;
  /** Answers a confirming call without a person (an eval case's confirm policy); undefined leaves it to the rules below. */
  autoDecide?(call: { tool: RegisteredTool; input: unknown }): { decision: "approved" | "denied"; reason: string } | undefined;
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
  // Text mode describes media in the result's text; native mode sends the parts where the provider reads them.
  const sendsMedia = turn.toolMode === "native" && !turn.autoToolMode && acceptsMediaResults(turn.model.provider);
  for (const [name, { registered, tool: definition, ctx }] of definitions) {
    tools[name] = tool({
      ...(sendsMedia
        ? {
            toModelOutput: ({ toolCallId, output }: { toolCallId: string; output: unknown }) =>
              mediaToolOutput(String(output), metadata.calls?.[toolCallId]?.media),
          }
        : {}),
      description: registered.description,
      inputSchema: jsonSchema(registered.inputSchema as Parameters<typeof jsonSchema>[0]),
      execute: async (input: unknown, { toolCallId, abortSignal }) => {
        const key = callKey(name, input);
        if (alreadyMade.has(key)) return `Already made: ${name} was called with these exact arguments earlier in this answer; use that result.`;
        await turn.hooks?.onToolStart?.({ toolCallId, tool: registered, input });
        // A call of its own to cancel: the person's Cancel ends this call, not the turn.
        const call = new AbortController();
        const outer = abortSignal ?? turn.signal;
        const signal = AbortSignal.any([outer, call.signal]);
        const running = turn.runningCalls?.start(toolCallId, name, () => call.abort());
        let result: InvokeResult;
        try {
          result = await invoke(
            definition,
            input,
            { ...ctx, signal, ...(running ? { progress: (n: number, total?: number, message?: string) => running.progress(n, total, message) } : {}) },
            { guardFile: turn.guardFile },
          );
        } finally {
          running?.end();
        }
        if (call.signal.aborted && !outer.aborted) result = { ...result, text: CANCELLED_TEXT, output: CANCELLED_TEXT, isError: true, cancelled: true };
        // The model proposed other arguments: its history carries the edited ones, and this note says why.
        const edited = metadata.calls?.[toolCallId]?.edited;
        if (edited) result.text = `${editedNote(edited.proposed)}\n${result.text}`;
        alreadyMade.set(key, result.text);
        const facts = await turn.hooks?.onToolFinish?.({ toolCallId, tool: registered, input, result });
        metadata = withCallMeta(metadata, toolCallId, {
          sourcePackage: registered.sourcePackage,
          durationMs: result.durationMs,
          madeChanges: result.madeChanges,
          ...mediaOf(result),
          ...(result.cancelled ? { cancelled: true } : {}),
          ...(result.invalidInput ? { invalidInput: true } : {}),
          ...(facts ?? {}),
        });
        return result.text;
      },
    });
  }
  if (turn.toolMode === "text" || turn.autoToolMode) {
    tools[INVALID_CALL_TOOL_NAME] = tool({
      description: invalidCallTool.description,
      inputSchema: jsonSchema({ type: "object", properties: {}, additionalProperties: true }),
      execute: async (input: unknown) => (await invoke(invalidCallTool, input, turn.contextFor(INVALID_CALL_TOOL_NAME, turn.signal))).text,
    });
  }

  const promptTools: PromptTool[] = enabled.map((t) => ({
    name: t.name,
    description: t.description,
    inputJsonSchema: t.inputSchema,
    sourcePackage: t.sourcePackage,
    builtin: t.origin === "builtin",
  }));
  // The provider middleware sits right on the provider, so only its own failures are labelled its,
  // and the trace's tap there sees the request as sent and the reply as received. Deltas are
  // batched above it, before everything else (delta-batch.ts).
  const providerModel = wrapLanguageModel({ model: turn.model, middleware: [deltaBatchMiddleware, providerStreamMiddleware(turn.trace?.tap)] });
  let notice: string | undefined;
  const model = toolModeModel(providerModel, {
    mode: turn.toolMode,
    auto: turn.autoToolMode ?? false,
    protocol: turn.protocol,
    tools: promptTools,
    onParse: turn.trace?.onParse,
    onRepaired: (toolCallId, repaired) => {
      metadata = withCallMeta(metadata, toolCallId, { repaired });
    },
    onNotice: (text) => {
      notice = text;
    },
  });

  const approvalFor = async (toolCallId: string, toolName: string, input: unknown): Promise<ToolApprovalStatus> => {
    // A call a person already decided (the SDK asks again when it resumes) keeps that decision.
    if (metadata.calls?.[toolCallId]?.decision) return "not-applicable";
    const entry = definitions.get(toolName);
    if (!entry) return "not-applicable";
    const { registered } = entry;
    // Arguments the tool's schema refuses run straight into invoke's invalid-input error, which the
    // model can correct: no rule or person is asked about a call that cannot run (the AI SDK does
    // not validate a jsonSchema input).
    if (!(await validateInput(entry.tool.input, input)).ok) return "not-applicable";
    const verdict = await turn.rules?.(ruleCallOf(registered, input, toolName));
    const at = new Date().toISOString();
    if (verdict && verdict.decision !== "ask") {
      // A rule decides before the tool's own evaluate: a deny blocks even a tool that never asks.
      const allowed = verdict.decision === "allow";
      const reason = ruleDecisionText(verdict);
      const text = allowed ? undefined : notAdmittedText(entry.tool, input, { kind: "denied", reason: verdict.reason ?? reason });
      const decision: Decision = { by: "rule", decision: allowed ? "approved" : "denied", reason, rule: verdict.rule, at };
      metadata = withCallMeta(metadata, toolCallId, { sourcePackage: registered.sourcePackage, decision });
      await turn.hooks?.onAutoDecision?.({ toolCallId, tool: registered, input, decision, text });
      return allowed ? { type: "approved", reason } : { type: "denied", reason: text };
    }
    if (!verdict && !(await needsConfirmation(entry.tool, input, entry.ctx))) return "not-applicable";
    const auto = turn.autoDecide?.({ tool: entry.registered, input });
    if (auto) {
      const decision: Decision = { by: "eval", decision: auto.decision, reason: auto.reason, at };
      const text = auto.decision === "denied" ? notAdmittedText(entry.tool, input, { kind: "denied", reason: auto.reason }) : undefined;
      metadata = withCallMeta(metadata, toolCallId, { sourcePackage: entry.registered.sourcePackage, decision });
      await turn.hooks?.onAutoDecision?.({ toolCallId, tool: entry.registered, input, decision, text });
      return text === undefined ? { type: "approved", reason: auto.reason } : { type: "denied", reason: text };
    }
    if (!turn.supervised) {
      const text = notAdmittedText(entry.tool, input, { kind: "unsupervised" });
      const decision: Decision = { by: "unsupervised", decision: "not-admitted", at };
      metadata = withCallMeta(metadata, toolCallId, { sourcePackage: entry.registered.sourcePackage, decision });
      await turn.hooks?.onAutoDecision?.({ toolCallId, tool: entry.registered, input, decision, text });
      return { type: "denied", reason: text };
    }
    if (!verdict && (typeof turn.grants === "function" ? await turn.grants() : turn.grants).has(toolName)) {
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
  const modelMessages = rewriteDenials(
    await convertToModelMessages(inlineTextAttachments(turn.messages), { tools, ignoreIncompleteToolCalls: true }),
    (toolCallId) => denialText.get(toolCallId),
  );

  const integrations = [...(turn.trace ? [turn.trace.telemetry] : []), ...(turn.telemetry ?? [])];
  const modelName = `${turn.model.provider}/${turn.model.modelId}`;
  const describe = turn.describeError ?? ((error: unknown) => turnErrorText(error, modelName));
  const limits = { idleSeconds: turn.streamIdleTimeoutSeconds, stepSeconds: turn.stepTimeoutSeconds };
  let streamError: string | undefined;
  /** Set when the SDK's timeout ended the turn: that is an error, not the person's stop. */
  let timedOut: string | undefined;
  const result = streamText({
    model,
    tools,
    instructions: SYSTEM_PROMPT,
    messages: modelMessages,
    stopWhen: isStepCount(turn.maxSteps),
    toolApproval: ({ toolCall }) => approvalFor(toolCall.toolCallId, toolCall.toolName, toolCall.input),
    experimental_toolApprovalSecret: turn.approvalSecret,
    abortSignal: turn.signal,
    telemetry: integrations.length ? { integrations } : { isEnabled: false },
    // The idle limit covers the wait for the first output too: a provider that sends headers and a
    // role chunk, then nothing, has produced no output at all.
    timeout: { firstChunkMs: limits.idleSeconds * 1000, chunkMs: limits.idleSeconds * 1000, stepMs: limits.stepSeconds * 1000 },
    onError: ({ error }) => {
      streamError = describe(error);
    },
    onAbort: ({ reason }) => {
      timedOut = timeoutText(reason, modelName, limits);
      if (timedOut) streamError = timedOut;
    },
  });

  let answeredBy: string | undefined;
  /** A provider's refusal: the answer ends empty or cut, and the person is told why. */
  let refused: string | undefined;
  const summaryBefore = metadata.turn;
  const currentMetadata = (): ChatMessageMetadata => {
    const summary = turn.trace && mergeSummaries(summaryBefore, turn.trace.summary());
    return {
      ...metadata,
      ...(answeredBy ? { model: answeredBy } : {}),
      toolMode: turn.toolMode,
      ...(turn.toolMode === "text" ? { protocol: turn.protocol } : {}),
      ...(notice ? { notice } : {}),
      ...(streamError ? { error: streamError } : {}),
      ...(refused ? { refused } : {}),
      ...(summary ? { turn: summary } : {}),
    };
  };

  // The answer so far, handed to onProgress off the hot path: a timer or a size threshold, never a wait per chunk.
  const progress = new AnswerProgress(lastMessage?.role === "assistant" ? lastMessage : undefined);
  let progressTimer: ReturnType<typeof setTimeout> | undefined;
  const reportProgress = () => {
    clearTimeout(progressTimer);
    progressTimer = undefined;
    turn.hooks?.onProgress?.(progress.snapshot());
  };
  const observe = (chunk: UIMessageChunk) => {
    if (!progress.add(chunk) || !turn.hooks?.onProgress) return;
    if (progress.pending >= PROGRESS_BYTES) reportProgress();
    else progressTimer ??= setTimeout(reportProgress, PROGRESS_INTERVAL_MS);
  };

  let ended = false;
  /** Stores the end of the turn once; returns an error the end itself brought, if any. */
  const end = async (message: UIMessage, aborted: boolean): Promise<string | undefined> => {
    ended = true;
    clearTimeout(progressTimer);
    const final = { ...message, metadata: { ...readMetadata(message.metadata), ...currentMetadata() } };
    try {
      return (await turn.hooks?.onEnd?.(final, { aborted, error: streamError, timedOut, refused })) ?? undefined;
    } catch (error) {
      return describe(error);
    }
  };
  let endError: string | undefined;

  const uiStream = toUIMessageStream({
    stream: result.stream,
    tools,
    originalMessages: turn.messages,
    generateMessageId: turn.generateMessageId,
    // Also words a failed tool call (unknown tool, refused input) for the person, labelled as such.
    onError: describe,
    messageMetadata: ({ part }) => {
      if (part.type === "finish-step") {
        answeredBy = part.response.modelId;
        // The AI SDK's word for OpenAI's content_filter and Anthropic's refusal.
        if (part.finishReason === "content-filter") refused = refusalText(modelName);
      }
      if (part.type === "start" || part.type === "finish" || part.type === "finish-step") return currentMetadata();
      return undefined;
    },
    onStepEnd: async ({ responseMessage }) => {
      progress.stepEnded(responseMessage);
      await turn.hooks?.onStepEnd?.(responseMessage);
    },
    onEnd: async ({ responseMessage, isAborted }) => {
      endError = await end(responseMessage, isAborted && !timedOut);
    },
  });

  return pumpToEnd(uiStream, {
    observe,
    rewrite: (chunk) => {
      // The error goes onto the message before the error chunk, so the browser shows it in place.
      if (chunk.type === "error") return [{ type: "message-metadata", messageMetadata: currentMetadata() }, chunk];
      if (chunk.type === "abort" && timedOut)
        return [
          { type: "message-metadata", messageMetadata: currentMetadata() },
          { type: "error", errorText: timedOut },
        ];
      return undefined;
    },
    end: async (failure) => {
      const errors: string[] = [];
      if (failure) {
        // The SDK's stream itself broke, so its onEnd never ran: store what was streamed, with the error.
        console.error("toolroom: chat stream failed:", failure.error);
        streamError = describe(failure.error);
        errors.push(streamError);
        if (!ended) endError = await end(progress.snapshot(), false);
      }
      if (endError) errors.push(endError);
      return errors.map((errorText) => ({ type: "error", errorText }));
    },
  });
}
