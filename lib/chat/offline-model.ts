// The offline model: a scripted stand-in that needs no network. Long because it is a whole AI SDK
// language model (doGenerate, doStream in both tool modes, usage) plus the rules that read a request.
import { generateId as aiGenerateId } from "ai";
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4Message,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import { INVALID_CALL_TOOL_NAME } from "./invalid-call-tool";
import { JUDGE_SYSTEM_MARKER, offlineJudgeReply } from "./offline-judge";
import { toolOutputText } from "./text-mode";
import { formatCall, parseToolResultMessage } from "./text-protocol/format";
import { readToolPrompt } from "./text-protocol/prompt";
import type { TextProtocol, ToolInput } from "./text-protocol/types";

export const OFFLINE_PROVIDER = "offline";
export const OFFLINE_MODEL_ID = "scripted";
/** Shown wherever a model is named: the model is honest about being a stand-in. */
export const OFFLINE_MODEL_LABEL = "Offline (scripted)";

export interface OfflineModelOptions {
  /** Characters per text delta; small so the text-mode parser sees calls split mid-way. */
  chunkSize?: number;
  /** Delay per delta when the user asks for an answer "slowly" (e2e tests press Stop meanwhile). */
  slowDelayMs?: number;
  generateId?: () => string;
}

export interface OfferedTool {
  name: string;
  argNames: string[];
  /** What the model is told the tool does (native: the description; text mode: the summary line). */
  description?: string;
  /** Arguments without which a call is invalid (text mode: those without a default). */
  required?: string[];
  /** Arguments declared as source-root paths (`format: "path"`). */
  pathArgs?: string[];
}

interface Reply {
  text: string;
  call?: { toolName: string; input: ToolInput };
  /** Set in text mode: the call is written into the text instead of a tool-call part. */
  protocol?: TextProtocol;
  slow: boolean;
}

/**
 * A deterministic, network-free LanguageModelV4: it picks a tool and arguments from the user's
 * message, emits the call (natively, or as protocol text when the tools are only described in
 * the system prompt, so the real parser runs), then answers from the tool's result.
 */
export function createOfflineModel(options: OfflineModelOptions = {}): LanguageModelV4 {
  const chunkSize = options.chunkSize ?? 8;
  const slowDelayMs = options.slowDelayMs ?? 40;
  // Tool call ids are stored as primary keys across every chat: they must be unique, not per-instance counters.
  const generateId = options.generateId ?? (() => `offline-${aiGenerateId()}`);

  return {
    specificationVersion: "v4",
    provider: OFFLINE_PROVIDER,
    modelId: OFFLINE_MODEL_ID,
    supportedUrls: {},

    async doGenerate(call) {
      call.abortSignal?.throwIfAborted();
      const reply = decide(call);
      const content: LanguageModelV4Content[] = [];
      const text = replyText(reply);
      if (text) content.push({ type: "text", text });
      const toolCall = nativeCall(reply, generateId);
      if (toolCall) content.push(toolCall);
      return {
        content,
        finishReason: finishReason(toolCall !== undefined),
        usage: usage(call, text),
        response: { id: generateId(), modelId: OFFLINE_MODEL_ID },
        warnings: [],
      };
    },

    async doStream(call) {
      call.abortSignal?.throwIfAborted();
      const reply = decide(call);
      const text = replyText(reply);
      const toolCall = nativeCall(reply, generateId);
      const textId = generateId();
      const deltas = chunks(text, chunkSize);
      const head: LanguageModelV4StreamPart[] = [
        { type: "stream-start", warnings: [] },
        { type: "response-metadata", id: generateId(), modelId: OFFLINE_MODEL_ID },
      ];
      if (deltas.length) head.push({ type: "text-start", id: textId });
      const tail: LanguageModelV4StreamPart[] = [];
      if (deltas.length) tail.push({ type: "text-end", id: textId });
      if (toolCall) tail.push(toolCall);
      tail.push({ type: "finish", finishReason: finishReason(toolCall !== undefined), usage: usage(call, text) });
      const parts = [...head, ...deltas.map((delta): LanguageModelV4StreamPart => ({ type: "text-delta", id: textId, delta })), ...tail];
      const signal = call.abortSignal;
      const delay = reply.slow ? slowDelayMs : 0;
      let next = 0;
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        async pull(controller) {
          const part = parts[next++];
          if (!part) {
            controller.close();
            return;
          }
          if (delay > 0 && part.type === "text-delta") await sleep(delay, signal);
          controller.enqueue(part);
        },
      });
      return { stream };
    },
  };
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    // The abort reason is the SDK's AbortError (a DOMException, an Error); anything else becomes one.
    const reason = () => (signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
    if (signal?.aborted) return reject(reason());
    const onAbort = () => {
      clearTimeout(timer);
      reject(reason());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function chunks(text: string, size: number): string[] {
  const points = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(""));
  return out;
}

function finishReason(called: boolean): LanguageModelV4FinishReason {
  return called ? { unified: "tool-calls", raw: "tool_calls" } : { unified: "stop", raw: "stop" };
}

/** A rough count (4 characters a token): enough for the usage display, and deterministic. */
function usage(call: LanguageModelV4CallOptions, output: string): LanguageModelV4Usage {
  const input = Math.ceil(JSON.stringify(call.prompt).length / 4);
  const out = Math.ceil(output.length / 4);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: out, text: out, reasoning: 0 },
  };
}

function replyText(reply: Reply): string {
  if (reply.call && reply.protocol) {
    return `${reply.text}\n${formatCall(reply.protocol, reply.call.toolName, reply.call.input)}`;
  }
  return reply.text;
}

function nativeCall(reply: Reply, generateId: () => string): Extract<LanguageModelV4StreamPart, { type: "tool-call" }> | undefined {
  if (!reply.call || reply.protocol) return undefined;
  return { type: "tool-call", toolCallId: generateId(), toolName: reply.call.toolName, input: JSON.stringify(reply.call.input) };
}

// ---------------------------------------------------------------------------------------------
// Reading the prompt

/** The last text part: a TOOL RESULT may share a user message with what came before it. */
function lastTextPart(message: LanguageModelV4Message): string {
  if (message.role === "system") return message.content;
  for (let i = message.content.length - 1; i >= 0; i--) {
    const part = message.content[i];
    if (part?.type === "text") return part.text;
  }
  return "";
}

function lastUserRequest(prompt: LanguageModelV4CallOptions["prompt"]): string {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i];
    if (message?.role !== "user") continue;
    const texts = message.content.flatMap((part) => (part.type === "text" && !parseToolResultMessage(part.text) ? [part.text] : []));
    if (texts.length) return texts.join("\n");
  }
  return "";
}

function offeredTools(call: LanguageModelV4CallOptions): { tools: OfferedTool[]; protocol?: TextProtocol } {
  const native = (call.tools ?? []).flatMap((tool) => {
    if (tool.type !== "function") return [];
    const properties = tool.inputSchema.properties;
    const argNames = properties && typeof properties === "object" ? Object.keys(properties) : [];
    const required = Array.isArray(tool.inputSchema.required) ? tool.inputSchema.required.filter((r): r is string => typeof r === "string") : [];
    const pathArgs = argNames.filter((name) => (properties as Record<string, { format?: unknown }>)[name]?.format === "path");
    return [{ name: tool.name, argNames, description: tool.description ?? "", required, pathArgs }];
  });
  if (native.length) return { tools: native };
  const system = call.prompt.flatMap((message) => (message.role === "system" ? [message.content] : [])).join("\n\n");
  const prompted = readToolPrompt(system);
  if (!prompted) return { tools: [] };
  return {
    protocol: prompted.protocol,
    tools: prompted.tools.map((tool) => ({
      name: tool.name,
      argNames: Object.keys(tool.args),
      description: tool.summary,
      // A placeholder ("…") marks an argument without a default.
      required: Object.entries(tool.args).flatMap(([name, value]) => (value === "…" ? [name] : [])),
    })),
  };
}

const SLOW = /\bslowly\b/i;

function decide(call: LanguageModelV4CallOptions): Reply {
  const { tools, protocol } = offeredTools(call);
  const request = lastUserRequest(call.prompt);
  const slow = SLOW.test(request);
  const last = call.prompt.at(-1);

  // Asked to judge an eval answer (lib/evals/judge.ts): the documented offline rule answers.
  if (call.prompt.some((m) => m.role === "system" && m.content.startsWith(JUDGE_SYSTEM_MARKER))) return { text: offlineJudgeReply(request), slow: false };
  if (last?.role === "tool") {
    const result = [...last.content].reverse().find((part) => part.type === "tool-result");
    if (result?.type === "tool-result") {
      return { text: slowed(answerFromResult(result.toolName, toolOutputText(result.output)), slow), slow };
    }
  }
  if (last?.role === "user") {
    const result = parseToolResultMessage(lastTextPart(last));
    if (result) return { text: slowed(answerFromResult(result.toolName, result.result), slow), slow };
  }

  const choice = chooseTool(request.replace(SLOW, " "), tools);
  if (!choice) return { text: slowed(capabilities(tools), slow), slow };
  const reply: Reply = { text: `I'll call \`${choice.toolName}\` for this.`, call: choice, slow };
  if (protocol) reply.protocol = protocol;
  return reply;
}

// ---------------------------------------------------------------------------------------------
// Answers

const EXCERPT_LINES = 20;
const EXCERPT_CHARS = 1500;

function answerFromResult(toolName: string, result: string): string {
  const trimmed = result.trim();
  if (toolName === INVALID_CALL_TOOL_NAME) return `My tool call could not be parsed:\n\n${quote(trimmed)}`;
  if (/^error:/i.test(trimmed)) return `\`${toolName}\` reported an error:\n\n${quote(trimmed)}`;
  if (/^(not run|not admitted|denied|refused)\b/i.test(trimmed)) {
    return `The call to \`${toolName}\` was not run:\n\n${quote(trimmed)}`;
  }
  if (!trimmed) return `\`${toolName}\` returned nothing.`;
  const lines = trimmed.split("\n");
  let excerpt = lines.slice(0, EXCERPT_LINES).join("\n");
  if (excerpt.length > EXCERPT_CHARS) excerpt = `${excerpt.slice(0, EXCERPT_CHARS)}…`;
  const more = lines.length > EXCERPT_LINES ? `\n\n(${lines.length - EXCERPT_LINES} more lines not shown.)` : "";
  return `Here is what \`${toolName}\` returned:\n\n${fenced(excerpt)}${more}`;
}

function quote(text: string): string {
  return text
    .split("\n")
    .slice(0, EXCERPT_LINES)
    .map((line) => `> ${line}`)
    .join("\n");
}

/** A fence longer than any backtick run inside, so the excerpt cannot close it early. */
function fenced(text: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}\n${text}\n${fence}`;
}

/** About 60 deltas of 8 characters, so a slow answer is still streaming when Stop is pressed. */
function slowed(text: string, slow: boolean): string {
  if (!slow) return text;
  const counting = Array.from({ length: 100 }, (_, i) => String(i + 1)).join(" ");
  return `${text}\n\nTaking it slowly, as asked: ${counting}.`;
}

const EXAMPLES: { tool: string; example: string }[] = [
  { tool: "list_files", example: "list files in lib" },
  { tool: "read_file", example: "read README.md" },
  { tool: "grep_code", example: "grep TODO" },
  { tool: "search_code", example: "search for tool registry" },
  { tool: "list_runs", example: "list runs" },
  { tool: "run_terminal_command", example: "run `ls -la`" },
];

function capabilities(tools: OfferedTool[]): string {
  const intro =
    "I'm the offline scripted model: a deterministic stand-in that needs no network. I pick a tool from your message, call it, and report what it returned.";
  if (tools.length === 0) return `${intro}\n\nNo tools are available in this chat, so there is nothing I can run.`;
  const names = new Set(tools.map((tool) => tool.name));
  const examples = EXAMPLES.filter((e) => names.has(e.tool)).map((e) => `- "${e.example}"`);
  const named = `- name a tool, with its arguments as a JSON object if it needs any: "${tools[0]?.name ?? ""} {...}"`;
  return [intro, `Try:\n${[...examples, named].join("\n")}`, `Tools in this chat: ${tools.map((tool) => `\`${tool.name}\``).join(", ")}.`].join("\n\n");
}

// ---------------------------------------------------------------------------------------------
// Choosing a tool

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function argKey(tool: OfferedTool, preferred: string[]): string {
  return preferred.find((name) => tool.argNames.includes(name)) ?? tool.argNames[0] ?? preferred[0] ?? "input";
}

/** Strips quotes, backticks and trailing punctuation from a value taken out of prose. */
function clean(value: string): string {
  let v = value.trim();
  const pair = /^([`"'])(.*)\1$/s.exec(v);
  if (pair) return pair[2] ?? "";
  // A loop, not /[?!,;:]+$/: that regex retries from every mark of a long run, quadratic.
  let end = v.length;
  while (end > 0 && "?!,;:".includes(v[end - 1]!)) end--;
  v = v.slice(0, end);
  if (v.length > 1 && v.endsWith(".") && !v.endsWith("..")) v = v.slice(0, -1);
  return v.replace(/^[`"']|[`"']$/g, "");
}

/**
 * Opening braces tried as the start of a JSON object. Each try scans to the matching brace (or the
 * end of the message) and may parse that span, so trying every brace would be quadratic: a message
 * of 80 KB of "{" took 12 s. Arguments come early in a message; a bound keeps the search linear.
 */
const MAX_OBJECT_STARTS = 16;

/** The first `{…}` among the message's first MAX_OBJECT_STARTS braces that parses as a JSON object. */
function jsonObjectIn(message: string): ToolInput | undefined {
  let start = message.indexOf("{");
  for (let tries = 0; start >= 0 && tries < MAX_OBJECT_STARTS; tries++, start = message.indexOf("{", start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < message.length; i++) {
      const c = message[i];
      if (inString) {
        if (c === "\\") i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === "{") depth++;
      else if (c === "}" && --depth === 0) {
        try {
          const value: unknown = JSON.parse(message.slice(start, i + 1));
          if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as ToolInput;
        } catch {
          // not JSON; try the next brace
        }
        break;
      }
    }
  }
  return undefined;
}

interface Intent {
  tools: string[];
  match(message: string): RegExpExecArray | null;
  args(m: RegExpExecArray, tool: OfferedTool): ToolInput;
}

const PATH_KEYS = ["path", "file", "filename", "file_path", "dir", "directory"];
const QUERY_KEYS = ["pattern", "query", "regex", "text", "q"];

const INTENTS: Intent[] = [
  {
    tools: ["run_terminal_command"],
    match: (s) => /\brun\s+`([^`]+)`/i.exec(s) ?? /\brun\s+(?:the\s+)?command\s+(.+)$/im.exec(s),
    args: (m, tool) => ({ [argKey(tool, ["command", "cmd"])]: clean(m[1] ?? "") }),
  },
  {
    tools: ["list_runs"],
    match: (s) => /\b(?:list|show)\s+(?:me\s+)?(?:the\s+|all\s+|my\s+)?runs\b/i.exec(s),
    args: () => ({}),
  },
  {
    tools: ["list_files"],
    match: (s) => /\b(?:list|show)\s+(?:me\s+)?(?:the\s+|all\s+)?files\b(?:\s+(?:in|under|of|at|from)\s+(?:the\s+)?([^\s,;?!]+))?/i.exec(s),
    args: (m, tool) => ({ [argKey(tool, PATH_KEYS)]: m[1] ? clean(m[1]) || "." : "." }),
  },
  {
    tools: ["read_file"],
    match: (s) => /\b(?:read|open|cat|show)\s+(?:me\s+)?(?:the\s+)?(?:file\s+)?([`"']?(?:[\w.-]*\/[\w./-]+|[\w./-]*\w\.\w+)[`"']?)/i.exec(s),
    args: (m, tool) => ({ [argKey(tool, PATH_KEYS)]: clean(m[1] ?? "") }),
  },
  {
    tools: ["grep_code", "search_code"],
    match: (s) => /\bgrep\s+(?:for\s+)?(.+)$/im.exec(s),
    args: (m, tool) => ({ [argKey(tool, QUERY_KEYS)]: clean(m[1] ?? "") }),
  },
  {
    tools: ["search_code", "grep_code"],
    match: (s) => /\bsearch\s+(?:the\s+code(?:base)?\s+)?(?:for\s+)?(.+)$/im.exec(s),
    args: (m, tool) => ({ [argKey(tool, QUERY_KEYS)]: clean(m[1] ?? "") }),
  },
];

const STOPWORDS = new Set(["on", "in", "with", "for", "the", "at", "of", "using", "to", "and", "please", "tool", "call", "use", "=", "with:"]);

/** Arguments for a tool the user named: a quoted value, else the next word, as its first argument. */
function argsAfterName(message: string, at: number, tool: OfferedTool): ToolInput {
  const key = tool.argNames[0];
  if (!key) return {};
  const rest = message.slice(at);
  const quoted = /[`"']([^`"']+)[`"']/.exec(rest);
  if (quoted?.[1]) return { [key]: quoted[1] };
  const word = rest.split(/\s+/).find((w) => w && !STOPWORDS.has(w.toLowerCase()));
  return word ? { [key]: clean(word) } : {};
}

/** Exported for tests: the tool and arguments the offline model picks for a request. */
export function chooseTool(message: string, tools: OfferedTool[]): { toolName: string; input: ToolInput } | undefined {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));

  // A tool named in the message wins; the earliest mention, the longest name on a tie.
  let named: { tool: OfferedTool; index: number } | undefined;
  for (const tool of tools) {
    const m = new RegExp(`(?<![\\w.-])${escapeRegExp(tool.name)}(?![\\w-])`).exec(message);
    if (!m) continue;
    if (!named || m.index < named.index || (m.index === named.index && tool.name.length > named.tool.name.length)) {
      named = { tool, index: m.index };
    }
  }
  if (named) {
    const json = jsonObjectIn(message);
    if (json) return { toolName: named.tool.name, input: json };
    for (const intent of INTENTS) {
      if (!intent.tools.includes(named.tool.name)) continue;
      const m = intent.match(message);
      if (m) return { toolName: named.tool.name, input: intent.args(m, named.tool) };
    }
    return { toolName: named.tool.name, input: argsAfterName(message, named.index + named.tool.name.length, named.tool) };
  }

  for (const intent of INTENTS) {
    const tool = intent.tools.map((name) => byName.get(name)).find((t) => t !== undefined);
    if (!tool) continue;
    const m = intent.match(message);
    if (m) return { toolName: tool.name, input: intent.args(m, tool) };
  }
  return byWords(message, tools);
}

const WORD_STOPS = new Set([...STOPWORDS, "the", "a", "an", "this", "that", "me", "my", "it", "is", "are", "what", "how", "all", "from", "into", "inside"]);

/** "words" and "word", "counts" and "count": enough stemming to match a request to a tool's name. */
function stem(word: string): string {
  return word.length > 3 && word.endsWith("s") ? word.slice(0, -1) : word;
}

function wordsOf(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 2 && !WORD_STOPS.has(w))
      .map(stem),
  );
}

/** A path-looking token of the message ("README.md", "lib/tools"), for a tool's path argument. */
function pathIn(message: string): string | undefined {
  const m = /(?<![\w/.-])([`"']?(?:[\w.-]*\/[\w./-]+|[\w./-]*\w\.\w+)[`"']?)/.exec(message);
  return m?.[1] ? clean(m[1]) : undefined;
}

/**
 * The last resort, for plugin tools the intents do not know: the tool whose name and description
 * share the most words with the message (at least two; a name word counts double), if its required arguments
 * can be filled — a path argument from a path in the message. "count the words in README.md"
 * finds a `count_words {path}`.
 */
function byWords(message: string, tools: OfferedTool[]): { toolName: string; input: ToolInput } | undefined {
  const said = wordsOf(message);
  if (said.size === 0) return undefined;
  const path = pathIn(message);
  let best: { toolName: string; input: ToolInput; score: number } | undefined;
  for (const tool of tools) {
    const nameWords = wordsOf(tool.name.replace(/_/g, " "));
    const described = wordsOf(tool.description ?? "");
    let score = 0;
    let matched = 0;
    for (const w of said) {
      const points = nameWords.has(w) ? 2 : described.has(w) ? 1 : 0;
      score += points;
      if (points) matched++;
    }
    // One shared word ("list") is chance; two ("count", "words") is a request.
    if (matched < 2) continue;
    const input: ToolInput = {};
    let fillable = true;
    for (const arg of tool.required ?? []) {
      if (path && (tool.pathArgs?.includes(arg) || PATH_KEYS.includes(arg))) input[arg] = path;
      else fillable = false;
    }
    if (fillable && (!best || score > best.score)) best = { toolName: tool.name, input, score };
  }
  return best && { toolName: best.toolName, input: best.input };
}
