import "server-only";
import { generateId, type UIMessage } from "ai";
import { BROKE_OFF_TEXT, closeInterruptedCalls, isToolPart } from "@/lib/chat/history";
import { readMetadata, type Interruption } from "@/lib/chat/metadata";
import { modelResolverFor, ModelConfigError } from "@/lib/chat/models";
import { runChatTurn } from "@/lib/chat/engine";
import {
  deleteMessagesFrom,
  listGrants,
  loadMessages,
  saveMessage,
  saveQuestion,
  updateChat,
  updateToolCall,
  upsertToolCall,
  type ChatRecord,
  type NewChat,
} from "@/lib/db/queries";
import { closeOpenTraceSteps, saveTraceSteps } from "@/lib/db/trace-queries";
import { getSettings } from "@/lib/settings";
import { endTurn, hasRunningTurn, startTurn } from "./active-turns";
import { turnRunsElsewhere } from "@/lib/server/team/instance-lease";
import { applyApprovalResponses, approvalResponsesOf, recordApprovalRequests, sweepChatApprovals } from "@/lib/server/approvals/approvals";
import { awaitsAnswerAfterTimeout } from "@/lib/chat/timed-out";
import { approvalSecret } from "@/lib/server/approvals/approval-secret";
import { ruleDecider } from "@/lib/server/approvals/rule-book";
import { newOwner } from "@/lib/server/auth/ownership";
import { ownChatOrNone } from "./chat-access";
import { defaultChatConfig } from "./chat-view";
import { closeStrandedCalls, showsUnfinishedWork } from "./crash-recovery";
import { HttpError } from "@/lib/server/http/http-error";
import { inputHash } from "@/lib/server/approvals/input-hash";
import { getRegistry } from "@/lib/server/runtime/registry";
import { callQuestions } from "@/lib/server/elicitations/call-questions";
import { runningCallsOf } from "./running-calls";
import { toolModeFor, turnSetup } from "./turn-setup";
import { otlpTelemetry, turnTrace } from "./turn-trace";
import { uiMessageSseResponse } from "./sse-response";
import type { ChatRequest } from "./chat-request";

function titleFrom(message: UIMessage): string {
  const text = message.parts
    .map((p) => (p.type === "text" ? p.text : ""))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
  return text ? (text.length > 60 ? `${text.slice(0, 57)}…` : text) : "New chat";
}

/** A chat this request starts is stored with its first message, in one commit (saveQuestion). */
type TurnChat = ChatRecord & { unsaved?: NewChat };

async function ensureChat(request: ChatRequest): Promise<TurnChat> {
  const settings = getSettings();
  const existing = await ownChatOrNone(request.id);
  const defaults = defaultChatConfig();
  const modelRef = request.model ?? defaults.modelRef;
  if (request.model && !settings.llms[request.model]) throw new HttpError(400, `No model named "${request.model}" in settings llms.`, "unknown_model");
  if (!existing) {
    if (request.message.role !== "user") throw new HttpError(404, `Chat ${request.id} does not exist.`, "unknown_chat");
    const unsaved: NewChat = {
      id: request.id,
      title: titleFrom(request.message as UIMessage),
      modelRef,
      toolMode: request.toolMode ?? defaults.toolMode,
      textProtocol: request.textProtocol ?? null,
      supervised: request.supervised ?? defaults.supervised,
      ownerId: newOwner(),
    };
    const now = new Date();
    return { ...unsaved, textProtocol: unsaved.textProtocol ?? null, ownerId: unsaved.ownerId ?? null, shareId: null, createdAt: now, updatedAt: now, unsaved };
  }
  const changes: Partial<ChatRecord> = {};
  if (request.model && request.model !== existing.modelRef) changes.modelRef = request.model;
  if (request.toolMode && request.toolMode !== existing.toolMode) changes.toolMode = request.toolMode;
  if (request.textProtocol && request.textProtocol !== existing.textProtocol) changes.textProtocol = request.textProtocol;
  return Object.keys(changes).length ? updateChat(existing.id, changes) : existing;
}

/**
 * Builds the history this turn continues from, with the server's copy (`stored`) as the authority;
 * `waiting`: the chat's open approvals.
 */
async function historyFor(
  chat: TurnChat,
  request: ChatRequest,
  stored: UIMessage[],
  waiting: readonly unknown[],
): Promise<{ messages: UIMessage[]; position: number }> {
  const incoming = request.message as UIMessage;

  if (request.trigger === "regenerate-message") {
    const lastUser = stored.findLastIndex((m) => m.role === "user");
    if (lastUser === -1) throw new HttpError(400, "There is no question to answer again.", "nothing_to_regenerate");
    if (waiting.length) throw new HttpError(409, "Answer the pending approval first.", "pending_approval");
    await deleteMessagesFrom(chat.id, lastUser + 1);
    return { messages: stored.slice(0, lastUser + 1), position: lastUser + 1 };
  }
  if (incoming.role === "user") {
    if (waiting.length) throw new HttpError(409, "A tool call is waiting for your approval; answer it before sending a new message.", "pending_approval");
    // A question is its text and the resources attached to it (checked in chat-request.ts); the
    // engine gives text resources to the model as text, images and audio as file parts.
    const userMessage: UIMessage = { id: incoming.id, role: "user", parts: incoming.parts.filter((p) => p.type === "text" || p.type === "file") };
    if (!userMessage.parts.some((p) => p.type === "text")) throw new HttpError(400, "The message has no text.", "empty_message");
    await saveQuestion(chat.id, stored.length, userMessage, chat.unsaved);
    return { messages: [...stored, userMessage], position: stored.length + 1 };
  }
  const last = stored.at(-1);
  if (!last || last.role !== "assistant" || last.id !== incoming.id) {
    throw new HttpError(409, "Approval decisions must answer the chat's latest message.", "stale_message");
  }
  // Timed out while the person was away: nothing to decide, the model answers as after a denial.
  if (approvalResponsesOf(incoming).length === 0 && awaitsAnswerAfterTimeout(last)) return { messages: stored, position: stored.length - 1 };
  const decided = await applyApprovalResponses({
    chatId: chat.id,
    stored: last,
    responses: approvalResponsesOf(incoming),
    grantApprovalIds: new Set(request.grantApprovalIds),
    editedInputs: request.editedInputs,
  });
  await saveMessage(chat.id, stored.length - 1, decided);
  return { messages: [...stored.slice(0, -1), decided], position: stored.length - 1 };
}

export async function handleChatRequest(request: ChatRequest, signal: AbortSignal): Promise<Response> {
  const chat = await ensureChat(request);
  // A chat this request starts has nothing stored yet: no approvals, no calls.
  if (chat.unsaved) return runTurn(chat, request, signal, [], []);
  // Approvals past their time are timed out before the history is read (the sweeper, every few
  // seconds, may not have reached them yet).
  const waiting = await sweepChatApprovals(chat.id);
  let stored = await loadMessages(chat.id);
  // Defensive: a turn that died with an earlier server process, or ended without storing its end,
  // may have left calls without a result, and the model refuses a history like that.
  if (!hasRunningTurn(chat.id) && !(await turnRunsElsewhere(chat.id))) {
    const closed = await closeStrandedCalls(chat.id, new Date(), stored);
    if (closed.length > 0 || showsUnfinishedWork(stored)) stored = await loadMessages(chat.id);
    await closeOpenTraceSteps(chat.id);
  }
  return runTurn(chat, request, signal, stored, waiting);
}

async function runTurn(chat: TurnChat, request: ChatRequest, signal: AbortSignal, stored: UIMessage[], waiting: readonly unknown[]): Promise<Response> {
  const settings = getSettings();
  const registry = await getRegistry();
  const { messages, position } = await historyFor(chat, request, stored, waiting);
  const resolver = modelResolverFor(settings);
  let model;
  try {
    model = resolver.byName(chat.modelRef);
  } catch (error) {
    if (error instanceof ModelConfigError) throw new HttpError(400, error.message, "model_config");
    throw error;
  }
  const modelId = `${model.provider}/${model.modelId}`;
  let grants: Promise<ReadonlySet<string>> | undefined;
  const continuing = messages.at(-1)?.role === "assistant";
  const responsePosition = continuing ? position : messages.length;

  const trace = settings.telemetry.traces ? turnTrace(settings, { modelRef: chat.modelRef, modelId, toolMode: chat.toolMode }) : undefined;
  const stop = startTurn(chat.id);
  const turnSignal = AbortSignal.any([signal, stop.signal]);
  const marked = (message: UIMessage, interrupted: Interruption | undefined): UIMessage => {
    const { interrupted: _previous, ...metadata } = readMetadata(message.metadata);
    return { ...message, metadata: interrupted ? { ...metadata, interrupted } : metadata };
  };
  // One save at a time, in order, so a late progress save never overwrites the final answer; a
  // failed save (a full disk) is kept to be reported, never thrown into the stream.
  let saving: Promise<void> = Promise.resolve();
  let saveError: unknown;
  const save = (write: () => Promise<void>) => {
    saving = saving.then(write).catch((error: unknown) => {
      saveError ??= error;
    });
    return saving;
  };
  // While the answer streams it is stored marked "running", so a crash leaves it recognisable.
  // The trace is written as the turn goes, with the answer: a crash leaves its steps (closed at the
  // next start). A save writes only the steps that changed since the last one.
  const persistStep = (message: UIMessage) =>
    save(async () => {
      const stored = marked(message, "running");
      await saveMessage(chat.id, responsePosition, stored);
      await recordApprovalRequests(chat.id, stored, settings.chat.approvalTimeoutSeconds, modelId);
      if (trace) await saveTraceSteps(chat.id, trace.changedSteps(stored.id));
    });
  const persistProgress = (message: UIMessage) =>
    void save(async () => {
      await saveMessage(chat.id, responsePosition, marked(message, "running"));
      if (trace) await saveTraceSteps(chat.id, trace.changedSteps(message.id));
    });
  const persistEnd = async (message: UIMessage, info: { aborted: boolean; error?: string; timedOut?: string }): Promise<string | undefined> => {
    const { aborted, error } = info;
    const interrupted: Interruption | undefined = aborted && !error ? (stop.signal.aborted ? "stopped" : "disconnected") : undefined;
    // Every step ends saying what happened; a step the SDK ended keeps its own outcome.
    trace?.close(
      info.timedOut
        ? { kind: "timed-out", text: info.timedOut }
        : error
          ? { kind: "provider-error", text: error }
          : interrupted
            ? { kind: interrupted, text: interrupted === "stopped" ? "stopped by the person" : "the browser went away" }
            : { kind: "finished" },
    );
    // A call the provider's broken reply left open did not run: it says so, not that the server stopped.
    const closedCalls = aborted ? closeInterruptedCalls(message) : error ? closeInterruptedCalls(message, BROKE_OFF_TEXT) : message;
    const stored = marked(closedCalls, interrupted);
    // SQLite writes and the trace's serialisation are synchronous: let the chunks already streamed
    // reach the socket first, or a short answer's first words wait for its storage.
    await new Promise((resolve) => setImmediate(resolve));
    await save(async () => {
      await saveMessage(chat.id, responsePosition, stored);
      await recordApprovalRequests(chat.id, stored, settings.chat.approvalTimeoutSeconds, modelId);
      // Every step, so one whose periodic save failed is stored now.
      if (trace) await saveTraceSteps(chat.id, trace.changedSteps(stored.id, { all: true }));
      if (closedCalls !== message || aborted) {
        for (const part of stored.parts) {
          if (isToolPart(part) && part.state === "output-error")
            await updateToolCall(part.toolCallId, { state: "error", isError: true, output: part.errorText, finishedAt: new Date() });
        }
      }
    });
    endTurn(chat.id, stop);
    if (saveError === undefined) return undefined;
    console.error("toolroom: could not store the answer:", saveError);
    // Prisma's message quotes the calling code over several lines; its last line is the cause.
    const cause = String((saveError as Error).message ?? saveError)
      .trim()
      .split("\n")
      .at(-1);
    return `Error: the answer could not be stored (${cause}); it is lost when you reload.`;
  };

  const questions = callQuestions(chat, settings.chat.approvalTimeoutSeconds);
  let stream;
  try {
    // What every row of a call of this turn holds, whether it starts running or is decided first.
    const callRecord = (tool: { name: string; sourcePackage: string }, input: unknown) => ({
      chatId: chat.id,
      toolName: tool.name,
      sourcePackage: tool.sourcePackage,
      input: JSON.stringify(input ?? {}),
      inputHash: inputHash(input ?? {}),
      model: modelId,
    });
    stream = await runChatTurn({
      ...turnSetup({
        settings,
        resolver,
        chatId: chat.id,
        modelId,
        chatLlm: { type: "ref", ref: chat.modelRef },
        isNewConversation: messages.length <= 1,
        elicitFor: questions.elicitFor,
      }),
      chatId: chat.id,
      messages,
      model,
      ...toolModeFor(settings, { type: "ref", ref: chat.modelRef }, chat),
      supervised: chat.supervised,
      registry,
      grants: () => (grants ??= listGrants(chat.id).then((names) => new Set(names))),
      rules: ruleDecider(settings, chat.id),
      approvalSecret: approvalSecret(),
      signal: turnSignal,
      generateMessageId: generateId,
      trace,
      telemetry: await otlpTelemetry(settings),
      runningCalls: runningCallsOf(chat.id),
      hooks: {
        onToolStart: async ({ toolCallId, tool, input }) => {
          questions.started(tool.name, toolCallId);
          const startedAt = new Date();
          await upsertToolCall(
            toolCallId,
            { ...callRecord(tool, input), state: "running", startedAt },
            { state: "running", startedAt, model: modelId, sourcePackage: tool.sourcePackage },
          );
        },
        onToolFinish: async ({ toolCallId, tool, result }) => {
          await updateToolCall(toolCallId, {
            state: result.cancelled ? "cancelled" : result.isError ? "error" : "done",
            isError: result.isError,
            output: result.text,
            durationMs: result.durationMs,
            madeChanges: result.madeChanges,
            finishedAt: new Date(),
          });
          const elicitations = await questions.finished(tool.name, toolCallId);
          return elicitations ? { elicitations } : undefined;
        },
        onAutoDecision: async ({ toolCallId, tool, input, decision, text }) => {
          const data = {
            ...callRecord(tool, input),
            state: decision.decision === "approved" ? "approved" : decision.decision === "denied" ? "denied" : "not-admitted",
            decidedBy: decision.by,
            decision: decision.decision,
            decisionReason: decision.reason ?? null,
            ruleKey: decision.rule?.key ?? null,
            decidedAt: new Date(decision.at),
            output: text ?? null,
          };
          await upsertToolCall(toolCallId, data, data);
        },
        onStepEnd: persistStep,
        onProgress: persistProgress,
        onEnd: (message, info) => persistEnd(message, info),
      },
    });
  } catch (error) {
    endTurn(chat.id, stop);
    throw error;
  }
  // The engine reads the turn to its end on the server, so the answer is stored even when the
  // browser goes away mid-answer; this response only listens.
  // `no-transform` keeps Next's gzip off the stream: gzipped, each event waits for zlib's thread pool
  // and a free event loop before it reaches the socket, so a short answer's first words waited for
  // the end of its turn (bench/RESULTS.md, #17). Pages stay compressed (a run comparison can be 100 MB of HTML).
  return uiMessageSseResponse(stream, { "x-toolroom-chat": chat.id, "cache-control": "no-cache, no-transform" });
}
