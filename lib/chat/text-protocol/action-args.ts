import type { JsonValue } from "@/lib/tools/types";
import type { ToolInput } from "./types";

export type ArgsResult = { ok: true; value: ToolInput } | { ok: false; error: string };

const LITERAL_HINT = 'a quoted string, a number, true/false/null, a [list] or an {"object"}';
const MAX_DEPTH = 64;

class ArgsError extends Error {}

/**
 * Parses the text between the parentheses of `ACTION: tool(...)`.
 *
 * AORTA evaluates it with Python's `ast` and accepts keyword literals only; this is the same
 * language without Python: keyword arguments whose values are literals (strings in either quote
 * style, numbers, true/false/null and their Python spellings, JSON-ish lists and objects).
 * Anything else is refused with a message that tells the model how to fix the call.
 */
export function parseActionArgs(src: string): ArgsResult {
  try {
    return { ok: true, value: new ArgsReader(src).readArguments() };
  } catch (error) {
    if (error instanceof ArgsError) return { ok: false, error: error.message };
    throw error;
  }
}

function isIdentStart(c: string): boolean {
  return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_";
}

function isIdentPart(c: string): boolean {
  return isIdentStart(c) || (c >= "0" && c <= "9");
}

/** Plain assignment of `__proto__` would replace the prototype instead of adding a key. */
function setOwn(target: { [key: string]: JsonValue }, key: string, value: JsonValue): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

const KEYWORDS: Record<string, JsonValue> = {
  true: true,
  false: false,
  null: null,
  True: true,
  False: false,
  None: null,
};

class ArgsReader {
  private i = 0;

  constructor(private readonly src: string) {}

  readArguments(): ToolInput {
    const args: ToolInput = {};
    let position = 0;
    this.skipWs();
    while (this.i < this.src.length) {
      position++;
      const name = this.readArgumentName(position);
      if (Object.hasOwn(args, name)) throw new ArgsError(`Argument \`${name}\` is given twice.`);
      this.skipWs();
      setOwn(args, name, this.readValue(0, name));
      this.skipWs();
      if (this.i >= this.src.length) break;
      if (this.src[this.i] !== ",") this.failAfterValue(name);
      this.i++;
      this.skipWs();
    }
    return args;
  }

  private readArgumentName(position: number): string {
    const c = this.src[this.i] ?? "";
    if (c === "*") throw new ArgsError("`*`/`**` unpacking is not allowed: write every argument as name=value.");
    if (!isIdentStart(c)) {
      throw new ArgsError(`Argument ${position} has no name: positional arguments are not allowed, write every argument as name=value.`);
    }
    const start = this.i;
    while (this.i < this.src.length && isIdentPart(this.src[this.i] ?? "")) this.i++;
    const name = this.src.slice(start, this.i);
    this.skipWs();
    const next = this.src[this.i];
    if (next === "=" && this.src[this.i + 1] !== "=") {
      this.i++;
      return name;
    }
    if (next === "(") throw new ArgsError(`Function calls are not allowed in arguments (\`${name}(\`): pass literal values only.`);
    throw new ArgsError(
      `Argument ${position} (\`${name}\`) has no name: positional arguments and variables are not allowed, write every argument as name=value.`,
    );
  }

  private failAfterValue(name: string): never {
    const rest = this.src.slice(this.i, this.i + 20);
    throw new ArgsError(
      `Unexpected \`${rest}\` after the value of \`${name}\`: a value must be a single literal (expressions are not allowed), and arguments are separated by commas.`,
    );
  }

  private skipWs(): void {
    while (this.i < this.src.length) {
      const c = this.src[this.i];
      if (c !== " " && c !== "\t" && c !== "\n" && c !== "\r") return;
      this.i++;
    }
  }

  private readValue(depth: number, name: string): JsonValue {
    if (depth > MAX_DEPTH) throw new ArgsError(`The value of \`${name}\` is nested too deeply.`);
    const c = this.src[this.i];
    if (c === undefined) throw new ArgsError(`Argument \`${name}\` has no value after \`=\`.`);
    if (c === '"' || c === "'") return this.readString();
    if (c === "[") return this.readList(depth, name);
    if (c === "{") return this.readObject(depth, name);
    if (c === "-" || c === "+" || c === "." || (c >= "0" && c <= "9")) return this.readNumber(name);
    if (isIdentStart(c)) {
      const start = this.i;
      while (this.i < this.src.length && isIdentPart(this.src[this.i] ?? "")) this.i++;
      const word = this.src.slice(start, this.i);
      if (Object.hasOwn(KEYWORDS, word)) return KEYWORDS[word] ?? null;
      const next = this.src[this.i];
      if (next === "(") throw new ArgsError(`Function calls are not allowed in arguments (\`${word}(\`): pass literal values only.`);
      if (next === '"' || next === "'") {
        throw new ArgsError(`String prefixes such as \`${word}"…"\` are not allowed in \`${name}\`: use a plain quoted string.`);
      }
      throw new ArgsError(`The value of \`${name}\` must be a literal (${LITERAL_HINT}), not \`${word}\`.`);
    }
    if (c === "(") throw new ArgsError(`Tuples and parenthesised expressions are not allowed in \`${name}\`: use a [list].`);
    throw new ArgsError(`The value of \`${name}\` must be a literal (${LITERAL_HINT}), not \`${this.src.slice(this.i, this.i + 20)}\`.`);
  }

  private readString(): string {
    const quote = this.src[this.i] ?? '"';
    if (this.src.startsWith(quote.repeat(3), this.i)) {
      throw new ArgsError(`Triple-quoted strings are not supported: use ${quote}…${quote} and write newlines as \\n.`);
    }
    this.i++;
    let out = "";
    let segment = this.i;
    while (this.i < this.src.length) {
      const c = this.src[this.i];
      if (c === quote) {
        out += this.src.slice(segment, this.i);
        this.i++;
        return out;
      }
      if (c === "\\") {
        out += this.src.slice(segment, this.i);
        out += this.readEscape();
        segment = this.i;
        continue;
      }
      this.i++;
    }
    throw new ArgsError(`Unterminated string: a ${quote} is missing.`);
  }

  /** Python's escapes (a superset of JSON's); unknown ones keep their backslash, as Python does. */
  private readEscape(): string {
    const e = this.src[this.i + 1];
    this.i += 2;
    switch (e) {
      case "n":
        return "\n";
      case "t":
        return "\t";
      case "r":
        return "\r";
      case "b":
        return "\b";
      case "f":
        return "\f";
      case "v":
        return "\v";
      case "0":
        return "\0";
      case "\\":
      case '"':
      case "'":
      case "/":
        return e;
      case "\n":
        return "";
      case "x":
        return this.readHexEscape(2);
      case "u":
        return this.readHexEscape(4);
      case "U":
        return this.readHexEscape(8);
      case undefined:
        throw new ArgsError("Unterminated string: it ends with a lone backslash.");
      default:
        return `\\${e}`;
    }
  }

  private readHexEscape(digits: number): string {
    const hex = this.src.slice(this.i, this.i + digits);
    if (hex.length !== digits || !/^[0-9a-fA-F]+$/.test(hex)) {
      throw new ArgsError(`Invalid escape \\${this.src[this.i - 1]}${hex}: expected ${digits} hex digits.`);
    }
    this.i += digits;
    const code = parseInt(hex, 16);
    if (code > 0x10ffff) throw new ArgsError(`Invalid escape: code point ${hex} is out of range.`);
    return String.fromCodePoint(code);
  }

  private readNumber(name: string): number {
    const match = /^[+-]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(this.src.slice(this.i, this.i + 400));
    if (!match) throw new ArgsError(`The value of \`${name}\` must be a literal (${LITERAL_HINT}), not \`${this.src.slice(this.i, this.i + 20)}\`.`);
    this.i += match[0].length;
    const value = Number(match[0].replaceAll("_", ""));
    if (!Number.isFinite(value)) throw new ArgsError(`The number given for \`${name}\` is not finite.`);
    return value;
  }

  private readList(depth: number, name: string): JsonValue[] {
    this.i++;
    const items: JsonValue[] = [];
    this.skipWs();
    while (this.src[this.i] !== "]") {
      if (this.i >= this.src.length) throw new ArgsError(`Unterminated list in \`${name}\`: a \`]\` is missing.`);
      items.push(this.readValue(depth + 1, name));
      this.skipWs();
      if (this.src[this.i] === ",") {
        this.i++;
        this.skipWs();
      } else if (this.src[this.i] !== "]") {
        if (this.i >= this.src.length) throw new ArgsError(`Unterminated list in \`${name}\`: a \`]\` is missing.`);
        throw new ArgsError(`Expected \`,\` or \`]\` in the list given for \`${name}\`, found \`${this.src.slice(this.i, this.i + 20)}\`.`);
      }
    }
    this.i++;
    return items;
  }

  private readObject(depth: number, name: string): { [key: string]: JsonValue } {
    this.i++;
    const obj: { [key: string]: JsonValue } = {};
    this.skipWs();
    while (this.src[this.i] !== "}") {
      const c = this.src[this.i];
      if (c === undefined) throw new ArgsError(`Unterminated object in \`${name}\`: a \`}\` is missing.`);
      if (c !== '"' && c !== "'") throw new ArgsError(`Object keys in \`${name}\` must be quoted strings.`);
      const key = this.readString();
      this.skipWs();
      if (this.src[this.i] !== ":") throw new ArgsError(`Expected \`:\` after the key "${key}" in \`${name}\`.`);
      this.i++;
      this.skipWs();
      setOwn(obj, key, this.readValue(depth + 1, name));
      this.skipWs();
      if (this.src[this.i] === ",") {
        this.i++;
        this.skipWs();
      } else if (this.src[this.i] !== "}") {
        if (this.i >= this.src.length) throw new ArgsError(`Unterminated object in \`${name}\`: a \`}\` is missing.`);
        throw new ArgsError(`Expected \`,\` or \`}\` in the object given for \`${name}\`, found \`${this.src.slice(this.i, this.i + 20)}\`.`);
      }
    }
    this.i++;
    return obj;
  }
}
