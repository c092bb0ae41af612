import { RE2JS } from "re2js";

/**
 * Every regex an eval suite supplies (an answer's `regex`, an argument's `{ regex }`) runs on RE2:
 * linear in the text, so a pattern like `(a+)+$` on a model's long answer cannot freeze the server
 * the way V8's backtracking RegExp does. Suites are written in JavaScript syntax; RE2JS translates
 * it and refuses what RE2 cannot run (backreferences, lookahead), which the suite loader reports.
 */

const FLAG_BITS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL };

/** The flags a suite may give: `i` (ignore case), `m` (^ and $ at line ends), `s` (. matches newlines). */
export const REGEX_FLAGS = /^[ims]*$/;

/** Compiled patterns are kept for reuse across trials; past this many the cache starts over. */
const CACHE_LIMIT = 1000;
const compiled = new Map<string, RE2JS>();

/** Compiles (once per pattern and flags) or throws RE2's own message. */
export function suiteRegex(pattern: string, flags = ""): RE2JS {
  const key = `${flags}/${pattern}`;
  let re = compiled.get(key);
  if (!re) {
    let bits = RE2JS.LOOKBEHINDS;
    for (const flag of flags) {
      const bit = FLAG_BITS[flag];
      if (bit === undefined) throw new Error(`unknown regex flag "${flag}" (use i, m or s)`);
      bits |= bit;
    }
    re = RE2JS.compile(RE2JS.translateRegExp(pattern), bits);
    if (compiled.size >= CACHE_LIMIT) compiled.clear();
    compiled.set(key, re);
  }
  return re;
}

/** Why RE2 cannot run this pattern, or undefined when it can. */
export function regexProblem(pattern: string, flags = ""): string | undefined {
  try {
    suiteRegex(pattern, flags);
    return undefined;
  } catch (error) {
    return `${(error as Error).message} (suite regexes run on RE2: no backreferences or lookahead)`;
  }
}

/** `/pattern/flags`, for a failure reason. */
export function showRegex(pattern: string, flags = ""): string {
  return `/${pattern}/${flags}`;
}
