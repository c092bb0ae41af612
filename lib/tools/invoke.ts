import { isFileAccessError } from "../../packages/toolroom-plugin-kit/index.js";
import { appendAiAssisted, guardFilePath } from "./guard-file";
import { formatOutput, isErrorText, isResultObject } from "./output";
import { normalisePathArgs, pathArgNames } from "@/lib/sandbox/path-args";
import { inputJsonSchema, validateInput } from "./schema";
import type { ContentPart, ToolContext, ToolDefinition, ToolOutput } from "./types";

export const DEFAULT_TIMEOUT_SECONDS = 60;

export interface InvokeResult {
  /** What the model sees. Starts with `Error:` when the call failed. */
  text: string;
  output: ToolOutput;
  isError: boolean;
  madeChanges: boolean;
  durationMs: number;
  timedOut: boolean;
  /** A person cancelled the call while it ran (chat's Cancel on the tool card). */
  cancelled?: boolean;
  /** The input failed the tool's schema: the tool never ran (`text` says why). */
  invalidInput?: boolean;
  /** The tool's rich content (`{ output, content }`), for callers that show it (MCP). */
  content?: ContentPart[];
}

export interface InvokeOptions {
  timeoutSeconds?: number;
  /** Settings `aiAssistedGuardFile`. */
  guardFile?: string;
  now?: () => number;
}

class ToolTimeout extends Error {}

/** Per input schema, the arguments it declares as source-root paths (converting a schema is not free). */
const pathArgs = new WeakMap<object, Promise<string[]>>();
function pathArgsOf(tool: ToolDefinition): Promise<string[]> {
  const schema = tool.input as object;
  let names = pathArgs.get(schema);
  if (!names) pathArgs.set(schema, (names = inputJsonSchema(tool.input).then(pathArgNames, () => [])));
  return names;
}

/**
 * The one way every caller (chat, try-it, CLI, MCP) runs a tool: validates the input, applies the
 * timeout, and turns a throw, a timeout or an invalid input into an `Error:` result — the model
 * is never thrown at.
 */
export async function invoke(tool: ToolDefinition, input: unknown, ctx: ToolContext, options: InvokeOptions = {}): Promise<InvokeResult> {
  const now = options.now ?? performance.now.bind(performance);
  const started = now();
  const finish = (text: string, output: ToolOutput, extra: Partial<InvokeResult> = {}): InvokeResult => ({
    text,
    output,
    isError: isErrorText(text),
    madeChanges: false,
    timedOut: false,
    durationMs: Math.round(now() - started),
    ...extra,
  });

  const validation = await validateInput(tool.input, input ?? {});
  if (!validation.ok) {
    const text = `Error: invalid input for ${tool.name}: ${validation.message}`;
    return finish(text, text, { invalidInput: true });
  }

  // The tool gets its path arguments as the approval rules saw them (lib/server/approvals asResolved).
  const value = normalisePathArgs(await pathArgsOf(tool), validation.value, ctx.sourceRoot);

  const timeoutSeconds = options.timeoutSeconds ?? numberSetting(ctx.settings.timeoutSeconds) ?? DEFAULT_TIMEOUT_SECONDS;
  const controller = new AbortController();
  const onAbort = () => controller.abort(ctx.signal.reason);
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort(new ToolTimeout());
        reject(new ToolTimeout());
      }, timeoutSeconds * 1000);
    });
    const aborted = new Promise<never>((_, reject) => {
      if (ctx.signal.aborted) reject(new Error("the call was cancelled"));
      ctx.signal.addEventListener("abort", () => reject(new Error("the call was cancelled")), { once: true });
    });
    const raw = await Promise.race([Promise.resolve(tool.execute(value, { ...ctx, signal: controller.signal })), timeout, aborted]);
    const output = isResultObject(raw) ? raw.output : raw;
    const madeChanges = isResultObject(raw) && raw.madeChanges === true;
    if (madeChanges && ctx.modelId) {
      await appendAiAssisted(await guardFilePath(ctx.sourceRoot, options.guardFile), ctx.modelId);
    }
    const content = isResultObject(raw) && Array.isArray(raw.content) ? raw.content : undefined;
    return finish(formatOutput(tool, output), output, { madeChanges, ...(content ? { content } : {}) });
  } catch (error) {
    if (error instanceof ToolTimeout) {
      const text = `Error: ${tool.name} timed out after ${timeoutSeconds} s`;
      return finish(text, text, { timedOut: true });
    }
    const message = error instanceof Error ? error.message : String(error);
    // ctx.files' refusal is already the sentence the model should see (as a built-in says it).
    const text = isFileAccessError(error) ? `Error: ${message}` : `Error: ${tool.name} failed: ${message}`;
    return finish(text, text);
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort);
  }
}

function numberSetting(value: unknown): number | undefined {
  return typeof value === "number" && value > 0 ? value : undefined;
}
