import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FunctionTool,
  LanguageModelV4Message,
  LanguageModelV4Middleware,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4ToolResultOutput,
} from "@ai-sdk/provider";
import { generateId as defaultGenerateId } from "ai";
import { INVALID_CALL_TOOL_NAME, type InvalidCallInput } from "./invalid-call-tool";
import { CALL_FORMAT, formatCall, formatToolResultMessage } from "./text-protocol/format";
import { createTextCallParser } from "./text-protocol/parser";
import { buildToolPrompt } from "./text-protocol/prompt";
import type { ParseEvent, PromptTool, TextProtocol } from "./text-protocol/types";

export interface TextModeOptions {
  protocol: TextProtocol;
  /**
   * What the prompt says about each tool (package, built-in or plugin). Which tools are offered
   * is decided by the call's own `tools` (so `activeTools` works); a tool missing here is
   * described from its schema as a built-in.
   */
  tools?: readonly PromptTool[];
  generateId?: () => string;
  /** Sees each call and near-miss the parser reports (the trace's raw view). */
  onParse?: (event: Exclude<ParseEvent, { type: "text" }>) => void;
  /** Told the id of each call read only after repairing a near-miss, and what was repaired. */
  onRepaired?: (toolCallId: string, repaired: string) => void;
}

/** What transformParams learned for wrapStream/wrapGenerate, which only see the new params. */
interface CallInfo {
  toolNames: string[];
}

/**
 * Text tool mode as a language-model middleware: the model never sees the tools natively; they
 * are described in the system prompt, earlier calls and results are written back as text, and
 * calls are parsed out of the reply into ordinary tool-call parts, so streamText's loop,
 * approvals and persistence work exactly as in native mode.
 */
export function textModeMiddleware(options: TextModeOptions): LanguageModelV4Middleware {
  const { protocol, onRepaired, onParse } = options;
  const generateId = options.generateId ?? defaultGenerateId;
  // Every call part gets its id here, so a repaired call's id can be reported.
  const toCallPart = (event: Exclude<ParseEvent, { type: "text" }>) => {
    onParse?.(event);
    const part = toolCallPart(event, protocol, generateId);
    if (event.type === "call" && event.repaired) onRepaired?.(part.toolCallId, event.repaired);
    return part;
  };
  const calls = new WeakMap<LanguageModelV4CallOptions, CallInfo>();

  return {
    specificationVersion: "v4",

    transformParams: async ({ params }) => {
      const offered = promptTools(params, options.tools ?? []);
      const { tools: _tools, toolChoice, ...rest } = params;
      let prompt = historyAsText(params.prompt, protocol);
      const useTools = offered.length > 0 && toolChoice?.type !== "none";
      if (useTools) prompt = withSystemText(prompt, buildToolPrompt(protocol, offered) + choiceRule(toolChoice));
      const next: LanguageModelV4CallOptions = { ...rest, prompt };
      calls.set(next, { toolNames: useTools ? offered.map((tool) => tool.name) : [] });
      return next;
    },

    wrapStream: async ({ doStream, params }) => {
      const toolNames = calls.get(params)?.toolNames ?? [];
      const result = await doStream();
      if (toolNames.length === 0) return result;
      return { ...result, stream: result.stream.pipeThrough(callExtractor(protocol, toolNames, generateId, toCallPart)) };
    },

    wrapGenerate: async ({ doGenerate, params }) => {
      const toolNames = calls.get(params)?.toolNames ?? [];
      const result = await doGenerate();
      if (toolNames.length === 0) return result;
      const parser = createTextCallParser(protocol, toolNames);
      const content: LanguageModelV4Content[] = [];
      let called = false;
      const add = (events: readonly ParseEvent[]) => {
        for (const event of events) {
          if (event.type === "text") {
            const last = content.at(-1);
            if (last?.type === "text") last.text += event.text;
            else content.push({ type: "text", text: event.text });
          } else {
            content.push(toCallPart(event));
            called = true;
          }
        }
      };
      for (const part of result.content) {
        if (part.type === "text") add(parser.push(part.text));
        else if (!parser.done) content.push(part);
      }
      add(parser.end());
      const finishReason = called ? { unified: "tool-calls" as const, raw: result.finishReason.raw } : result.finishReason;
      return { ...result, content, finishReason };
    },
  };
}

function promptTools(params: LanguageModelV4CallOptions, described: readonly PromptTool[]): PromptTool[] {
  const offered = (params.tools ?? []).filter((tool): tool is LanguageModelV4FunctionTool => tool.type === "function" && tool.name !== INVALID_CALL_TOOL_NAME);
  const byName = new Map(described.map((tool) => [tool.name, tool]));
  const known = described.filter((tool) => offered.some((o) => o.name === tool.name));
  const extra = offered
    .filter((tool) => !byName.has(tool.name))
    .map((tool) => ({
      name: tool.name,
      description: tool.description ?? "",
      inputJsonSchema: tool.inputSchema as Record<string, unknown>,
      sourcePackage: "",
      builtin: true,
    }));
  return [...known, ...extra];
}

function choiceRule(choice: LanguageModelV4CallOptions["toolChoice"]): string {
  if (choice?.type === "required") return "\n\nYou must call one of these tools in this reply.";
  if (choice?.type === "tool") return `\n\nYou must call the tool ${choice.toolName} in this reply.`;
  return "";
}

/** Appends to the last leading system message: some chat templates allow only one, first. */
function withSystemText(prompt: LanguageModelV4Prompt, text: string): LanguageModelV4Prompt {
  let last = -1;
  while (prompt[last + 1]?.role === "system") last++;
  if (last < 0) return [{ role: "system", content: text }, ...prompt];
  return prompt.map((message, i) => (i === last && message.role === "system" ? { ...message, content: `${message.content}\n\n${text}` } : message));
}

/** A tool result's output as text (wrapped for the model by formatToolResultMessage). */
export function toolOutputText(output: LanguageModelV4ToolResultOutput): string {
  switch (output.type) {
    case "text":
    case "error-text":
      return output.value;
    case "json":
    case "error-json":
      return typeof output.value === "string" ? output.value : JSON.stringify(output.value, null, 2);
    case "execution-denied":
      // The engine puts the tool's own not-admitted text in `reason`, as native providers send it.
      return output.reason ?? "Not run: the call was denied.";
    case "content":
      return output.value
        .map((part) => (part.type === "text" ? part.text : part.type === "file" ? `[file: ${part.mediaType}]` : ""))
        .filter(Boolean)
        .join("\n");
  }
}

function asInvalidCall(input: unknown): Partial<InvalidCallInput> {
  return typeof input === "object" && input !== null ? input : {};
}

/**
 * Writes tool calls and results of earlier steps as text: the call in the protocol's syntax in
 * the assistant message, the result as a user message — what a text-mode model would have seen.
 */
function historyAsText(prompt: LanguageModelV4Prompt, protocol: TextProtocol): LanguageModelV4Prompt {
  const out: LanguageModelV4Message[] = [];
  const intended = new Map<string, string>();
  for (const message of prompt) {
    if (message.role === "assistant") {
      const content: typeof message.content = [];
      const addText = (text: string, startsLine: boolean) => {
        const last = content.at(-1);
        if (last?.type === "text") {
          last.text += startsLine && last.text && !last.text.endsWith("\n") ? `\n${text}` : text;
        } else content.push({ type: "text", text });
      };
      for (const part of message.content) {
        if (part.type === "tool-call") {
          if (part.toolName === INVALID_CALL_TOOL_NAME) {
            const invalid = asInvalidCall(part.input);
            if (invalid.toolName) intended.set(part.toolCallId, invalid.toolName);
            addText(invalid.raw ?? "", true);
          } else addText(formatCall(protocol, part.toolName, part.input), true);
        } else if (part.type === "tool-result") {
          addText(formatToolResultMessage(part.toolName, toolOutputText(part.output), protocol), true);
        } else if (part.type === "text") addText(part.text, false);
        else content.push(part);
      }
      out.push({ ...message, content });
    } else if (message.role === "tool") {
      const results = message.content.flatMap((part) =>
        part.type === "tool-result" ? [formatToolResultMessage(intended.get(part.toolCallId) ?? part.toolName, toolOutputText(part.output), protocol)] : [],
      );
      if (results.length > 0) pushUser(out, results.join("\n\n"));
    } else if (message.role === "user") {
      const last = out.at(-1);
      if (last?.role === "user") last.content = [...last.content, ...message.content];
      else out.push(message);
    } else out.push(message);
  }
  return out;
}

/** Consecutive user messages are merged: several chat templates insist on alternating roles. */
function pushUser(out: LanguageModelV4Message[], text: string): void {
  const last = out.at(-1);
  if (last?.role === "user") last.content = [...last.content, { type: "text", text }];
  else out.push({ role: "user", content: [{ type: "text", text }] });
}

function toolCallPart(
  event: Exclude<ParseEvent, { type: "text" }>,
  protocol: TextProtocol,
  generateId: () => string,
): Extract<LanguageModelV4StreamPart, { type: "tool-call" }> {
  if (event.type === "call") {
    return { type: "tool-call", toolCallId: generateId(), toolName: event.toolName, input: JSON.stringify(event.input) };
  }
  const input: InvalidCallInput = { error: event.error, raw: event.raw, format: CALL_FORMAT[protocol] };
  if (event.toolName) input.toolName = event.toolName;
  return { type: "tool-call", toolCallId: generateId(), toolName: INVALID_CALL_TOOL_NAME, input: JSON.stringify(input) };
}

/** Parts that do not interrupt a text block. */
const PASSIVE_PARTS = new Set<LanguageModelV4StreamPart["type"]>(["stream-start", "response-metadata", "raw", "ping"]);

/**
 * Runs the parser over the text deltas and re-frames the text: our own text-start/delta/end
 * blocks (the SDK rejects deltas outside a block), the call as a tool-call part, and finish
 * reason `tool-calls` when a call was found.
 */
function callExtractor(
  protocol: TextProtocol,
  toolNames: string[],
  generateId: () => string,
  toCallPart: (event: Exclude<ParseEvent, { type: "text" }>) => LanguageModelV4StreamPart,
): TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart> {
  const parser = createTextCallParser(protocol, toolNames);
  let openId: string | null = null;
  let called = false;
  let finished = false;

  type Controller = TransformStreamDefaultController<LanguageModelV4StreamPart>;
  const closeText = (controller: Controller) => {
    if (openId === null) return;
    controller.enqueue({ type: "text-end", id: openId });
    openId = null;
  };
  const emit = (events: readonly ParseEvent[], controller: Controller) => {
    for (const event of events) {
      if (event.type === "text") {
        if (!event.text) continue;
        if (openId === null) {
          openId = generateId();
          controller.enqueue({ type: "text-start", id: openId });
        }
        controller.enqueue({ type: "text-delta", id: openId, delta: event.text });
      } else {
        closeText(controller);
        controller.enqueue(toCallPart(event));
        called = true;
      }
    }
  };

  return new TransformStream({
    transform(part, controller) {
      switch (part.type) {
        case "text-start":
        case "text-end":
          return;
        case "text-delta":
          emit(parser.push(part.delta), controller);
          return;
        case "finish":
          emit(parser.end(), controller);
          closeText(controller);
          finished = true;
          controller.enqueue(called ? { ...part, finishReason: { unified: "tool-calls", raw: part.finishReason.raw } } : part);
          return;
        default:
          if (!PASSIVE_PARTS.has(part.type)) closeText(controller);
          controller.enqueue(part);
      }
    },
    flush(controller) {
      if (finished) return;
      emit(parser.end(), controller);
      closeText(controller);
    },
  });
}
