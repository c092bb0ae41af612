import { RE2JS, RE2JSException } from "re2js";

/** A compiled grep_code pattern: whether some part of a text matches. */
export interface LinePattern {
  test(text: string): boolean;
}

/** Longest literal sent to V8 rather than RE2: V8 tries each start position, up to this many compares. */
const MAX_FAST_LITERAL = 64;
const REGEX_SYNTAX = /[\\^$.|?*+()[\]{}]/;

/** Why a JS feature is refused, for the model to read and rewrite its pattern. */
const LINEAR_ONLY = "grep_code matches with RE2 (linear time, so no pattern can stall the server), which has no backreferences or lookahead";

/** True when the pattern uses a JS backreference (`\1`…`\9`, `\k<name>`), which RE2 cannot run. */
function hasBackreference(pattern: string): boolean {
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== "\\") continue;
    const next = pattern[++i] ?? "";
    if ((next >= "1" && next <= "9") || (next === "k" && pattern[i + 1] === "<")) return true;
  }
  return false;
}

/**
 * Compiles a grep_code pattern (JavaScript regex syntax) into a matcher that runs in time linear
 * in the text, so a pattern like `(a+)+$` cannot freeze the server. A plain literal goes to V8
 * (no quantifier or alternation, so nothing to backtrack, and V8 searches literals far faster);
 * everything else goes to RE2JS, a pure-JS RE2 (lazy DFA), after RE2JS's own JS-to-RE2 syntax
 * translation. Returns the `Error:` text for a pattern it cannot run.
 */
export function compileLinePattern(pattern: string, caseSensitive: boolean): LinePattern | string {
  if (pattern.length <= MAX_FAST_LITERAL && !REGEX_SYNTAX.test(pattern)) {
    return new RegExp(pattern, caseSensitive ? "mu" : "imu");
  }
  if (hasBackreference(pattern)) return `Error: backreferences are not supported: ${LINEAR_ONLY}`;
  try {
    const flags = RE2JS.MULTILINE | RE2JS.LOOKBEHINDS | (caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
    return RE2JS.compile(RE2JS.translateRegExp(pattern), flags);
  } catch (err) {
    if (!(err instanceof RE2JSException)) throw err;
    if (/`\(\?[=!]/.test(err.message)) return `Error: lookahead (?= and (?! is not supported: ${LINEAR_ONLY}`;
    return `Error: invalid regular expression: ${err.message}`;
  }
}
