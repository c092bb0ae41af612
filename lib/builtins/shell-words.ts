/**
 * The command line as the shell would split it into a pipeline of words, and back.
 *
 * The tool never hands the user's text to the shell: it parses it here, checks the words, and runs
 * `renderPipeline` of them, every word single-quoted. So what was checked is what runs. Anything
 * whose meaning to a shell is an expansion or a second command (`$`, backticks, globs, `~`, `;`,
 * redirections, …) is refused rather than guessed at.
 */

export type ParsedCommand = { ok: true; stages: string[][] } | { ok: false; reason: string };

const SYNTAX_HINT = "; run one command or a '|' pipeline";

// Refused even inside quotes: they cannot be passed as arguments, or split one line into two.
const NEVER: Record<string, string> = { "\n": "newline", "\r": "carriage return", "\0": "NUL byte" };

function unquotedRefusal(command: string, i: number, wordStart: boolean): string | null {
  const ch = command[i]!;
  const next = command[i + 1];
  switch (ch) {
    case ";":
      return "';'";
    case "&":
      return "'&' (background or '&&')";
    case "`":
      return "backticks";
    case "$":
      return next === "(" ? "'$(' command substitution" : "'$' expansion (quote a literal '$' in single quotes)";
    case ">":
      return "'>' redirection";
    case "<":
      return "'<' redirection";
    case "(":
    case ")":
      return "parentheses (a subshell; quote them, e.g. find \\( … \\))";
    case "*":
    case "?":
    case "[":
      return `the glob character '${ch}' (quote the pattern: the shell would expand it to file names)`;
    case "{":
    case "}":
      return `the brace '${ch}' (quote it)`;
    case "~":
      return wordStart ? "'~' home-directory expansion (write the path out)" : null;
    case "#":
      return wordStart ? "'#' comment" : null;
    default:
      return null;
  }
}

/** Splits `command` into pipeline stages of words, or says why its meaning to a shell is not plain. */
export function parseCommand(command: string): ParsedCommand {
  const refuse = (what: string): ParsedCommand => ({ ok: false, reason: `shell syntax ${what} is not allowed${SYNTAX_HINT}` });
  for (const [ch, label] of Object.entries(NEVER)) if (command.includes(ch)) return refuse(label);

  const stages: string[][] = [];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  const endWord = () => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    if (ch === " " || ch === "\t") {
      endWord();
      continue;
    }
    if (ch === "|") {
      if (command[i + 1] === "|") return refuse("'||'");
      endWord();
      stages.push(words);
      words = [];
      continue;
    }
    if (ch === "'") {
      const close = command.indexOf("'", i + 1);
      if (close < 0) return { ok: false, reason: "unterminated single quote" };
      word += command.slice(i + 1, close);
      inWord = true;
      i = close;
      continue;
    }
    if (ch === '"') {
      let j = i + 1;
      for (; j < command.length && command[j] !== '"'; j++) {
        const c = command[j]!;
        if (c === "$") return refuse("'$' expansion inside double quotes (use single quotes for a literal \"$\")");
        if (c === "`") return refuse("backticks");
        if (c === "\\" && '$`"\\'.includes(command[j + 1] ?? "")) j++;
        word += command[j];
      }
      if (j >= command.length) return { ok: false, reason: "unterminated double quote" };
      inWord = true;
      i = j;
      continue;
    }
    if (ch === "\\") {
      if (i + 1 >= command.length) return { ok: false, reason: "a trailing backslash" };
      word += command[++i];
      inWord = true;
      continue;
    }
    const refusal = unquotedRefusal(command, i, !inWord);
    if (refusal) return refuse(refusal);
    word += ch;
    inWord = true;
  }
  endWord();
  stages.push(words);
  return { ok: true, stages };
}

/** A word quoted so `/bin/sh` passes it through unchanged. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9._+\/=:,@%-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The command line `/bin/sh -c` runs for these stages: each word exactly as parsed. */
export function renderPipeline(stages: readonly (readonly string[])[]): string {
  return stages.map((words) => words.map(shellQuote).join(" ")).join(" | ");
}
