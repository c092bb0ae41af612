// The incremental text-mode call parser: one state machine, linear in the text, for every protocol.
// It stays one file because its states are only readable together; what a finished call block
// means (JSON, <invoke> elements, near-miss repair) is decode.ts's.
import { parseActionArgs } from "./action-args";
import { decodeJsonCalls, decodeXmlCalls, unknownToolError, type Decoded } from "./decode";
import { CALL_SYNTAX, type CallSyntax } from "./format";
import { matchToolName } from "./repair";
import type { ParseEvent, TextProtocol } from "./types";

export interface TextCallParser {
  /** Feeds the next piece of model text; returns what is now certain, in order. */
  push(chunk: string): readonly ParseEvent[];
  /** The stream ended: releases held-back text and reports a call cut off mid-way as malformed. */
  end(): readonly ParseEvent[];
  /** True once a call (or malformed call) was reported by a one-call protocol: the rest of the reply is dropped. */
  readonly done: boolean;
  /** Non-whitespace characters dropped after the call (AORTA uses only the first ACTION). */
  readonly droppedChars: number;
}

/**
 * Where the scanner is. Prose states (LineStart, FenceRun, FenceCloseTail, Mid) emit text as they
 * go; only a possible call marker (at most 16 characters) and a started call are held back.
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
  TagBody,
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
  private readonly syntax: CallSyntax;
  private marker = "";
  private state = State.LineStart;
  private ended = false;
  dropped = 0;
  /** Right after a call of a several-calls protocol: ";" between calls is skipped (Llama). */
  private afterCall = false;

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
  /** Characters of `raw` that are the marker, not the body (0 for llama's "{"). */
  private bodyStart = 0;
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
    this.syntax = CALL_SYNTAX[protocol];
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
          const marker = this.inFence ? undefined : this.markerFor(c);
          if (this.afterCall && (c === "\n" || c === ";" || isHorizontalSpace(c))) {
            // What separates calls is neither prose nor call.
            i++;
            from = i;
          } else if (c === "\n" || isHorizontalSpace(c)) {
            i++;
          } else if (marker === "{") {
            // Llama's bare JSON call: the brace is the body's first character.
            this.appendText(chunk, from, i);
            from = -1;
            this.startBody(marker, "");
            seg = i;
          } else if (marker !== undefined) {
            this.appendText(chunk, from, i);
            from = -1;
            this.marker = marker;
            this.held = c;
            this.markerIdx = 1;
            this.state = State.Marker;
            i++;
          } else if (c === "`" || c === "~") {
            this.afterCall = false;
            this.runChar = c;
            this.runLen = 0;
            this.state = State.FenceRun;
          } else {
            this.afterCall = false;
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
              this.startBody(this.marker, this.held);
              this.held = "";
              seg = i;
            }
          } else {
            this.text += this.held;
            this.held = "";
            this.afterCall = false;
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
            seg = i;
          }
          break;
        }
        case State.JsonBody: {
          const stop = this.scanJson(chunk, i, seg);
          if (stop < 0) {
            i = n;
          } else if (this.syntax.close && chunk[stop] === ">" && this.tagIdx === this.syntax.close.length) {
            this.collect(chunk, seg, stop + 1);
            this.finishJson(true);
            i = stop + 1;
          } else if (!this.syntax.close) {
            // A protocol without a closing tag: the call is the JSON value, which just ended.
            this.collect(chunk, seg, stop + 1);
            this.finishJson(true);
            i = stop + 1;
          } else {
            // The JSON object closed and something other than the closing tag followed: the tag
            // was forgotten. The object is the call; what follows is read like any text after it.
            this.collect(chunk, seg, stop);
            this.finishJson(false);
            i = stop;
          }
          if (stop >= 0) seg = i;
          break;
        }
        case State.TagBody: {
          const stop = this.scanTag(chunk, i);
          if (stop < 0) {
            i = n;
          } else {
            this.collect(chunk, seg, stop + 1);
            this.finishTag(true);
            i = stop + 1;
            seg = i;
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
            seg = i;
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
      // A several-calls protocol goes back to prose after a call: it starts collecting here.
      if (from < 0 && this.state <= State.Mid) from = i;
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
        else if (this.marker === "{" && !/"name"\s*:/.test(this.raw.join(""))) this.releaseAsText();
        else this.finishMalformed(this.cutOffError());
        break;
      case State.TagBody:
        // Models whose provider stops at "</function_calls>" never write the closing tag.
        this.finishTag(false);
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

  private markerFor(c: string): string | undefined {
    for (const marker of this.syntax.markers) if (marker[0] === c) return marker;
    return undefined;
  }

  private cutOffError(): string {
    const close = this.syntax.close;
    const what = this.protocol === "mistral" ? "The [TOOL_CALLS] list" : this.protocol === "llama" ? "The JSON call" : "The <tool_call>";
    const rest = close ? ` and ${close}` : "";
    return this.inString
      ? `${what} was cut off inside a JSON string: a closing quote, the JSON value's end${rest} are missing.`
      : `${what} was cut off before its JSON value ended${close ? ` and ${close} closed it` : ""}.`;
  }

  private startBody(marker: string, held: string): void {
    this.marker = marker;
    this.afterCall = false;
    this.raw = held ? [held] : [];
    this.rawLen = held.length;
    this.bodyStart = held.length;
    this.depth = 0;
    this.inString = false;
    this.escape = false;
    this.tagIdx = 0;
    this.jsonEnd = -1;
    this.name = "";
    this.state = this.syntax.body === "action" ? State.ActionHead : this.syntax.body === "json" ? State.JsonBody : State.TagBody;
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
   * Scans a JSON call body (single-quoted strings too: they are a near-miss repair reads). With a
   * closing tag, returns the index of the ">" that completes it, or the index of the first
   * character after a finished JSON value that cannot start the tag; without one, the index of
   * the bracket that ends the value. -1: not yet. `seg` places the value's end in `raw`.
   */
  private scanJson(chunk: string, from: number, seg: number): number {
    const n = chunk.length;
    const tag = this.syntax.close;
    for (let i = from; i < n; i++) {
      const c = chunk.charCodeAt(i);
      if (this.inString) {
        if (this.escape) this.escape = false;
        else if (c === BACKSLASH) this.escape = true;
        else if (c === this.quote) this.inString = false;
        continue;
      }
      const ch = chunk[i] ?? "";
      if (tag) {
        if (ch === tag[this.tagIdx]) {
          if (++this.tagIdx === tag.length) return i;
          continue;
        }
        // After the value only spaces, a fence's backticks and the tag may follow.
        const afterValue = this.depth === 0 && this.jsonEnd >= 0;
        if (afterValue && (this.tagIdx > 0 || !(ch === "\n" || ch === "`" || isHorizontalSpace(ch)))) return i;
        this.tagIdx = ch === "<" ? 1 : 0;
      }
      if (c === DQUOTE || c === SQUOTE) {
        this.inString = true;
        this.quote = c;
      } else if (ch === "{" || ch === "[") {
        this.depth++;
      } else if ((ch === "}" || ch === "]") && --this.depth <= 0) {
        this.depth = 0;
        this.jsonEnd = this.rawLen + (i + 1 - seg);
        if (!tag) return i;
      }
    }
    return -1;
  }

  /** Returns the index of the ">" completing the closing tag, or -1. */
  private scanTag(chunk: string, from: number): number {
    const tag = this.syntax.close;
    for (let i = from; i < chunk.length; i++) {
      const ch = chunk[i];
      if (ch === tag[this.tagIdx]) {
        if (++this.tagIdx === tag.length) return i;
      } else this.tagIdx = ch === "<" ? 1 : 0;
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
    const match = matchToolName(name, this.toolNames);
    if (!match) {
      this.finishMalformed(unknownToolError(name, this.toolNames), name, raw);
      return;
    }
    const args = parseActionArgs(raw.slice(this.argsOffset, raw.length - 1));
    if (!args.ok) {
      this.finishMalformed(args.error, match.name, raw);
      return;
    }
    this.finishDecoded([
      match.repaired
        ? { ok: true, toolName: match.name, input: args.value, raw, repaired: match.repaired }
        : { ok: true, toolName: match.name, input: args.value, raw },
    ]);
  }

  private finishJson(closed: boolean): void {
    const joined = this.raw.join("");
    const raw = closed ? joined : joined.slice(0, this.jsonEnd);
    const close = closed ? this.syntax.close : "";
    const body = raw.slice(this.bodyStart, raw.length - close.length);
    const decoded = decodeJsonCalls(this.protocol, body, raw, this.toolNames, this.marker !== "{");
    if (decoded === null) this.releaseAsText(raw);
    else this.finishDecoded(decoded);
  }

  private finishTag(closed: boolean): void {
    const raw = this.raw.join("");
    const body = raw.slice(this.bodyStart, closed ? raw.length - this.syntax.close.length : raw.length);
    if (!closed && !body.includes("</invoke>")) {
      this.finishMalformed(`The ${this.marker} block was cut off before its </invoke> and ${this.syntax.close}.`);
      return;
    }
    this.finishDecoded(decodeXmlCalls(body, raw, this.toolNames));
  }

  /** Llama's "{" line was prose after all (not a call's shape): it is shown as it was written. */
  private releaseAsText(raw = this.raw.join("")): void {
    this.text += raw;
    this.raw = [];
    this.rawLen = 0;
    this.state = State.Mid;
  }

  private finishDecoded(decoded: readonly Decoded[]): void {
    this.flushText();
    for (const item of decoded) {
      if (item.ok) {
        const event: ParseEvent = { type: "call", toolName: item.toolName, input: item.input, raw: item.raw };
        if (item.repaired) event.repaired = item.repaired;
        this.emit(event);
      } else {
        const event: ParseEvent = { type: "malformed", raw: item.raw, error: item.error };
        if (item.toolName) event.toolName = item.toolName;
        this.emit(event);
      }
    }
    this.afterCallState();
  }

  private finishMalformed(error: string, toolName?: string, raw?: string): void {
    this.flushText();
    const event: ParseEvent = { type: "malformed", raw: raw ?? this.raw.join(""), error };
    if (toolName) event.toolName = toolName;
    this.emit(event);
    this.afterCallState();
  }

  private afterCallState(): void {
    this.raw = [];
    this.rawLen = 0;
    if (this.syntax.multi) {
      this.state = State.LineStart;
      this.afterCall = true;
    } else this.state = State.Done;
  }
}
