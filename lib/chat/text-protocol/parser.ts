// The incremental text-mode call parser: one state machine, linear in the text, for every protocol.
// It stays one file because its states are only readable together.
import { parseActionArgs } from "./action-args";
import { CALL_MARKER, JSON_CALL_CLOSE } from "./format";
import type { ParseEvent, TextProtocol, ToolInput } from "./types";

export interface TextCallParser {
  /** Feeds the next piece of model text; returns what is now certain, in order. */
  push(chunk: string): readonly ParseEvent[];
  /** The stream ended: releases held-back text and reports a call cut off mid-way as malformed. */
  end(): readonly ParseEvent[];
  /** True once a call (or malformed call) was reported: the rest of the reply is dropped. */
  readonly done: boolean;
  /** Non-whitespace characters dropped after the call (AORTA uses only the first ACTION). */
  readonly droppedChars: number;
}

/**
 * Where the scanner is. Prose states (LineStart, FenceRun, FenceCloseTail, Mid) emit text as they
 * go; only a possible call marker (at most 11 characters) and a started call are held back.
 */
const enum State {
  LineStart,
  FenceRun,
  FenceCloseTail,
  Mid,
  Marker,
  ActionHead,
  ActionName,
  ActionAfterName,
  ActionArgs,
  JsonBody,
  BadLine,
  Done,
}

const BACKSLASH = 92;
const DQUOTE = 34;
const SQUOTE = 39;

function isCallState(state: State): boolean {
  return state >= State.ActionHead && state <= State.BadLine;
}

function isHorizontalSpace(c: string): boolean {
  return c === " " || c === "\t" || c === "\r";
}

function isNameStart(c: string): boolean {
  return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_";
}

function isNamePart(c: string): boolean {
  return isNameStart(c) || (c >= "0" && c <= "9") || c === "-" || c === ".";
}

function isPlainObject(value: unknown): value is ToolInput {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const MAX_NAME = 128;

/** Most pushes decide nothing new; they share one empty answer instead of allocating. */
const NO_EVENTS: readonly ParseEvent[] = Object.freeze([]);

/**
 * An incremental, linear-time tool-call parser for text-mode models.
 *
 * A call must begin at the start of a line (indentation allowed) and outside a Markdown code
 * fence, so prose that quotes the format — in a fence or in inline code — stays prose. Each input
 * character is looked at once: the state survives between chunks, so a call may be split at any
 * point.
 */
export function createTextCallParser(protocol: TextProtocol, toolNames?: Iterable<string> | null): TextCallParser {
  return new Parser(protocol, toolNames ? new Set(toolNames) : null);
}

class Parser implements TextCallParser {
  private readonly marker: string;
  private state = State.LineStart;
  private ended = false;
  dropped = 0;

  // Markdown fences: a call inside one is an example, not a call.
  private inFence = false;
  private fenceChar = "";
  private fenceLen = 0;
  private runChar = "";
  private runLen = 0;

  private held = "";
  private markerIdx = 0;

  // The call being read: its raw text so far, in pieces, so long calls stay linear.
  private raw: string[] = [];
  private rawLen = 0;
  private name = "";
  private error = "";
  private argsOffset = 0;
  private depth = 0;
  private inString = false;
  private escape = false;
  private quote = 0;
  private tagIdx = 0;
  private jsonEnd = -1;

  private out: ParseEvent[] | null = null;
  private text = "";

  constructor(
    private readonly protocol: TextProtocol,
    private readonly toolNames: ReadonlySet<string> | null,
  ) {
    this.marker = CALL_MARKER[protocol];
  }

  get done(): boolean {
    return this.state === State.Done;
  }

  get droppedChars(): number {
    return this.dropped;
  }

  push(chunk: string): readonly ParseEvent[] {
    this.out = null;
    if (this.ended) return NO_EVENTS;
    const n = chunk.length;
    let i = 0;
    // Start of this chunk's not yet collected raw call text.
    let seg = 0;
    // Start of this chunk's prose not yet added to `text` (-1: not in prose). Prose is added as
    // whole slices, not character by character, to keep allocation per chunk constant.
    let from = this.state <= State.Mid ? 0 : -1;
    while (i < n) {
      switch (this.state) {
        case State.Mid: {
          const nl = chunk.indexOf("\n", i);
          if (nl < 0) {
            i = n;
          } else {
            i = nl + 1;
            this.state = State.LineStart;
          }
          break;
        }
        case State.LineStart: {
          const c = chunk[i] ?? "";
          if (c === "\n" || isHorizontalSpace(c)) {
            i++;
          } else if (c === this.marker[0] && !this.inFence) {
            this.appendText(chunk, from, i);
            from = -1;
            this.held = c;
            this.markerIdx = 1;
            this.state = State.Marker;
            i++;
          } else if (c === "`" || c === "~") {
            this.runChar = c;
            this.runLen = 0;
            this.state = State.FenceRun;
          } else {
            this.state = State.Mid;
          }
          break;
        }
        case State.FenceRun: {
          const c = chunk[i] ?? "";
          if (c === this.runChar) {
            this.runLen++;
            i++;
          } else {
            this.state = this.endFenceRun() ? State.FenceCloseTail : State.Mid;
          }
          break;
        }
        case State.FenceCloseTail: {
          // A closing fence may be followed by spaces only; "```js" inside a fence is content.
          const c = chunk[i] ?? "";
          if (c === "\n") {
            this.inFence = false;
            this.state = State.Mid;
          } else if (isHorizontalSpace(c)) {
            i++;
          } else {
            this.state = State.Mid;
          }
          break;
        }
        case State.Marker: {
          const c = chunk[i] ?? "";
          if (c === this.marker[this.markerIdx]) {
            this.held += c;
            this.markerIdx++;
            i++;
            if (this.markerIdx === this.marker.length) {
              this.raw = [this.held];
              this.rawLen = this.held.length;
              this.held = "";
              seg = i;
              this.state = this.protocol === "action" ? State.ActionHead : State.JsonBody;
            }
          } else {
            this.text += this.held;
            this.held = "";
            this.state = State.Mid;
            from = i;
          }
          break;
        }
        case State.ActionHead: {
          const c = chunk[i] ?? "";
          if (c === "\n" || isHorizontalSpace(c)) {
            i++;
          } else if (isNameStart(c)) {
            this.name = c;
            this.state = State.ActionName;
            i++;
          } else {
            this.fail('Expected a tool name after "ACTION:", as in ACTION: tool_name(arg="value").');
          }
          break;
        }
        case State.ActionName: {
          const c = chunk[i] ?? "";
          if (isNamePart(c) && this.name.length < MAX_NAME) {
            this.name += c;
            i++;
          } else if (c === "(") {
            this.openArgs(i - seg);
            i++;
          } else if (c === " " || c === "\t") {
            this.state = State.ActionAfterName;
            i++;
          } else {
            this.fail(`Expected "(" right after the tool name "${this.name}": write ACTION: ${this.name}(arg="value").`);
          }
          break;
        }
        case State.ActionAfterName: {
          const c = chunk[i] ?? "";
          if (c === " " || c === "\t") {
            i++;
          } else if (c === "(") {
            this.openArgs(i - seg);
            i++;
          } else {
            this.fail(`Expected "(" right after the tool name "${this.name}": write ACTION: ${this.name}(arg="value").`);
          }
          break;
        }
        case State.ActionArgs: {
          const close = this.scanArgs(chunk, i);
          if (close < 0) {
            i = n;
          } else {
            this.collect(chunk, seg, close + 1);
            this.finishAction(chunk.charCodeAt(close) === 41);
            i = close + 1;
          }
          break;
        }
        case State.JsonBody: {
          const stop = this.scanJson(chunk, i, seg);
          if (stop < 0) {
            i = n;
          } else if (chunk[stop] === ">" && this.tagIdx === JSON_CALL_CLOSE.length) {
            this.collect(chunk, seg, stop + 1);
            this.finishJson(true);
            i = stop + 1;
          } else {
            // The JSON object closed and something other than </tool_call> followed: the tag was
            // forgotten. The object is the call; what follows is dropped like any trailing text.
            this.collect(chunk, seg, stop);
            this.finishJson(false);
            i = stop;
          }
          break;
        }
        case State.BadLine: {
          const nl = chunk.indexOf("\n", i);
          if (nl < 0) {
            i = n;
          } else {
            this.collect(chunk, seg, nl);
            this.finishMalformed(this.error, this.name || undefined);
            i = nl;
          }
          break;
        }
        case State.Done: {
          for (; i < n; i++) {
            const c = chunk.charCodeAt(i);
            if (c > 32) this.dropped++;
          }
          break;
        }
      }
    }
    if (isCallState(this.state)) this.collect(chunk, seg, n);
    if (from >= 0 && this.state <= State.Mid) this.appendText(chunk, from, n);
    this.flushText();
    return this.out ?? NO_EVENTS;
  }

  end(): readonly ParseEvent[] {
    this.out = null;
    if (this.ended) return NO_EVENTS;
    this.ended = true;
    switch (this.state) {
      case State.Marker:
        this.text += this.held;
        this.held = "";
        break;
      case State.ActionHead:
      case State.ActionName:
      case State.ActionAfterName:
        this.finishMalformed(
          this.name
            ? `The call was cut off: write ACTION: ${this.name}(arg="value") with the arguments in parentheses.`
            : 'The call was cut off after "ACTION:": write ACTION: tool_name(arg="value").',
        );
        break;
      case State.ActionArgs:
        this.finishMalformed(
          this.inString
            ? `The call to "${this.name}" was cut off inside a string: a closing quote and ")" are missing.`
            : `The call to "${this.name}" was cut off before its closing ")".`,
          this.name,
        );
        break;
      case State.JsonBody:
        if (this.jsonEnd >= 0 && this.depth === 0) this.finishJson(false);
        else
          this.finishMalformed(
            this.inString
              ? "The <tool_call> was cut off inside a JSON string: a closing quote, the JSON object's end and </tool_call> are missing."
              : "The <tool_call> was cut off before its JSON object ended and </tool_call> closed it.",
          );
        break;
      case State.BadLine:
        this.finishMalformed(this.error, this.name || undefined);
        break;
      default:
        break;
    }
    this.flushText();
    return this.out ?? NO_EVENTS;
  }

  private emit(event: ParseEvent): void {
    (this.out ??= []).push(event);
  }

  private appendText(chunk: string, from: number, to: number): void {
    if (to > from) this.text += from === 0 && to === chunk.length ? chunk : chunk.slice(from, to);
  }

  private flushText(): void {
    if (this.text) {
      this.emit({ type: "text", text: this.text });
      this.text = "";
    }
  }

  /** Returns true when the run just ended may close the open fence (pending the rest of the line). */
  private endFenceRun(): boolean {
    if (this.runLen < 3) return false;
    if (!this.inFence) {
      this.inFence = true;
      this.fenceChar = this.runChar;
      this.fenceLen = this.runLen;
      return false;
    }
    return this.runChar === this.fenceChar && this.runLen >= this.fenceLen;
  }

  private collect(chunk: string, from: number, to: number): void {
    if (to <= from) return;
    const piece = chunk.slice(from, to);
    this.raw.push(piece);
    this.rawLen += piece.length;
  }

  private openArgs(offsetInSeg: number): void {
    this.argsOffset = this.rawLen + offsetInSeg + 1;
    this.depth = 1;
    this.inString = false;
    this.escape = false;
    this.state = State.ActionArgs;
  }

  private fail(error: string): void {
    this.error = error;
    this.state = State.BadLine;
  }

  /** Scans argument text; returns the index of the bracket closing the call, or -1. */
  private scanArgs(chunk: string, from: number): number {
    const n = chunk.length;
    let depth = this.depth;
    let inString = this.inString;
    let escape = this.escape;
    let quote = this.quote;
    let close = -1;
    for (let i = from; i < n; i++) {
      const c = chunk.charCodeAt(i);
      if (inString) {
        if (escape) escape = false;
        else if (c === BACKSLASH) escape = true;
        else if (c === quote) inString = false;
        continue;
      }
      if (c === DQUOTE || c === SQUOTE) {
        inString = true;
        quote = c;
      } else if (c === 40 || c === 91 || c === 123) {
        depth++;
      } else if ((c === 41 || c === 93 || c === 125) && --depth === 0) {
        close = i;
        break;
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.escape = escape;
    this.quote = quote;
    return close;
  }

  /**
   * Scans a JSON call body. Returns the index of the ">" that completes </tool_call>, the index of
   * the first character after a finished JSON object that cannot start the tag, or -1.
   * `seg` is where this chunk's uncollected raw text starts, to place the object's end in `raw`.
   */
  private scanJson(chunk: string, from: number, seg: number): number {
    const n = chunk.length;
    const tag = JSON_CALL_CLOSE;
    for (let i = from; i < n; i++) {
      const ch = chunk[i] ?? "";
      if (this.inString) {
        if (this.escape) this.escape = false;
        else if (ch === "\\") this.escape = true;
        else if (ch === '"') this.inString = false;
        continue;
      }
      if (ch === tag[this.tagIdx]) {
        if (++this.tagIdx === tag.length) return i;
        continue;
      }
      const afterObject = this.depth === 0 && this.jsonEnd >= 0;
      if (afterObject && (this.tagIdx > 0 || !(ch === "\n" || isHorizontalSpace(ch)))) return i;
      this.tagIdx = ch === "<" ? 1 : 0;
      if (ch === '"') {
        this.inString = true;
      } else if (ch === "{" || ch === "[") {
        this.depth++;
      } else if ((ch === "}" || ch === "]") && --this.depth === 0) {
        this.jsonEnd = this.rawLen + (i + 1 - seg);
      }
    }
    return -1;
  }

  private finishAction(closedByParen: boolean): void {
    const raw = this.raw.join("");
    const name = this.name;
    if (!closedByParen) {
      this.finishMalformed(`Unbalanced brackets in the call to "${name}": every [ and { must be closed before the final ")".`, name, raw);
      return;
    }
    if (!this.isKnown(name)) {
      this.finishMalformed(this.unknownToolError(name), name, raw);
      return;
    }
    const args = parseActionArgs(raw.slice(this.argsOffset, raw.length - 1));
    if (!args.ok) {
      this.finishMalformed(args.error, name, raw);
      return;
    }
    this.finishCall(name, args.value, raw);
  }

  private finishJson(closed: boolean): void {
    const joined = this.raw.join("");
    const raw = closed ? joined : joined.slice(0, this.jsonEnd);
    const body = raw.slice(this.marker.length, closed ? raw.length - JSON_CALL_CLOSE.length : raw.length);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.finishMalformed(`The <tool_call> body is not valid JSON (${why}).`, undefined, raw);
      return;
    }
    if (!isPlainObject(parsed) || typeof parsed.name !== "string") {
      this.finishMalformed('The <tool_call> JSON must be an object with "name" (a string) and "arguments" (an object).', undefined, raw);
      return;
    }
    const name = parsed.name;
    if (!this.isKnown(name)) {
      this.finishMalformed(this.unknownToolError(name), name, raw);
      return;
    }
    let args: unknown = parsed.arguments ?? parsed.parameters ?? {};
    // Some models stringify the arguments the way OpenAI's wire format does.
    if (typeof args === "string") {
      try {
        args = JSON.parse(args);
      } catch {
        // reported below as not an object
      }
    }
    if (!isPlainObject(args)) {
      this.finishMalformed(`"arguments" of the call to "${name}" must be a JSON object of argument names to values.`, name, raw);
      return;
    }
    this.finishCall(name, args, raw);
  }

  private isKnown(name: string): boolean {
    return this.toolNames === null || this.toolNames.has(name);
  }

  private unknownToolError(name: string): string {
    const names = this.toolNames ? [...this.toolNames] : [];
    return names.length ? `Unknown tool "${name}". Available tools: ${names.join(", ")}.` : `Unknown tool "${name}": no tools are available.`;
  }

  private finishCall(toolName: string, input: ToolInput, raw: string): void {
    this.flushText();
    this.emit({ type: "call", toolName, input, raw });
    this.state = State.Done;
  }

  private finishMalformed(error: string, toolName?: string, raw?: string): void {
    this.flushText();
    const event: ParseEvent = { type: "malformed", raw: raw ?? this.raw.join(""), error };
    if (toolName) event.toolName = toolName;
    this.emit(event);
    this.state = State.Done;
  }
}
