/**
 * What each default program of the shell tool may be given: allow-lists of options (and, for git,
 * of read-only subcommands), never deny-lists. The aim is narrow: an admitted command only reads;
 * it does not run another program, write a file, or point git at another repository. Reading
 * outside the source root stays possible (`cat /etc/hosts`): the tool is not a sandbox.
 * It is long because it is a table: one allow-list per program and per git subcommand, kept together
 * so a reviewer sees everything a command may be given in one place.
 *
 * Long options must be spelled out exactly. GNU getopt and git both accept any unique prefix
 * (`--out` for `--output`), so an abbreviation is refused, and named as the dangerous option it
 * may stand for when it is a prefix of one.
 */

type Arity = "none" | "required" | "optional";

interface OptionSpec {
  short: ReadonlyMap<string, Arity>;
  long: ReadonlyMap<string, Arity>;
  /** `-5` as a count (head, tail, grep, git log). */
  numeric?: boolean;
  /**
   * A long option's value only as `--name=value` (git: its revision parser reads `--format=` but
   * not `--format X`, so a separate word might be read as an option the checker took for a value).
   */
  longValueAttached?: boolean;
}

interface CommandSpec extends OptionSpec {
  /** Why these operands (non-option words) are refused, given the canonical options seen. */
  operands?: (operands: readonly string[], seen: ReadonlySet<string>) => string | null;
  /** Arguments the tool adds after the subcommand (git), so a repository's config cannot run programs. */
  forced?: readonly string[];
}

/**
 * Options in getopt notation: short "ab:c::" (`:` takes a value, `::` only attached), long
 * "all block-size= color[=]" (`=` takes a value, `[=]` only after `=`).
 */
function spec(short: string, long: string, extra: Partial<CommandSpec> = {}): CommandSpec {
  const shortMap = new Map<string, Arity>();
  for (let i = 0; i < short.length; i++) {
    const ch = short[i]!;
    let arity: Arity = "none";
    if (short[i + 1] === ":") {
      arity = short[i + 2] === ":" ? "optional" : "required";
      i += arity === "optional" ? 2 : 1;
    }
    shortMap.set(ch, arity);
  }
  const longMap = new Map<string, Arity>();
  for (const entry of long.split(/\s+/).filter(Boolean)) {
    if (entry.endsWith("[=]")) longMap.set(entry.slice(0, -3), "optional");
    else if (entry.endsWith("=")) longMap.set(entry.slice(0, -1), "required");
    else longMap.set(entry, "none");
  }
  return { short: shortMap, long: longMap, ...extra };
}

/** Long options that run programs, write files or leave the root: named when an abbreviation could mean one. */
const DANGEROUS_LONG = [
  "open-files-in-pager",
  "output",
  "output-directory",
  "ext-diff",
  "textconv",
  "filters",
  "exec-path",
  "upload-pack",
  "receive-pack",
  "exec",
  "git-dir",
  "work-tree",
  "config-env",
  "paginate",
  "namespace",
  "recurse-submodules",
  "submodule",
  "ignore-submodules",
  "show-signature",
  "help",
  "pid",
  "files0-from",
];

type OptionsResult = { ok: true; operands: string[]; seen: Set<string>; rest: string[] } | { ok: false; reason: string };

function unknownLong(label: string, name: string, allowed: ReadonlyMap<string, Arity>): string {
  const danger = DANGEROUS_LONG.find((d) => d.startsWith(name));
  if (danger) {
    return `"${label} --${name}" is refused: it is or abbreviates --${danger}, which can run other programs, write files or leave the source root`;
  }
  const full = [...allowed.keys()].filter((k) => k.startsWith(name));
  if (full.length > 0) return `"${label} --${name}" is refused: spell the option out (${full.map((k) => `--${k}`).join(", ")})`;
  return `"${label} --${name}" is not an option the shell tool allows`;
}

/**
 * Walks `args` like getopt: options anywhere (GNU and git permute), `--` ends them. With
 * `stopAtOperand`, stops at the first operand (git's global options before the subcommand).
 */
function parseOptions(label: string, s: OptionSpec, args: readonly string[], stopAtOperand = false): OptionsResult {
  const operands: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      // Before git's subcommand, "--" would leave the subcommand unchecked.
      if (stopAtOperand) return { ok: false, reason: `"${label} --" is not allowed before the subcommand` };
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      const arity = s.long.get(name);
      if (arity === undefined) return { ok: false, reason: unknownLong(label, name, s.long) };
      if (arity === "none" && eq >= 0) return { ok: false, reason: `"${label} --${name}" takes no value` };
      if (arity === "required" && eq < 0) {
        if (s.longValueAttached) return { ok: false, reason: `"${label} --${name}" needs its value attached: --${name}=VALUE` };
        if (i + 1 >= args.length) return { ok: false, reason: `"${label} --${name}" needs a value` };
        i++;
      }
      seen.add(`--${name}`);
      continue;
    }
    if (arg.startsWith("-") && arg !== "-") {
      if (s.numeric && /^-\d+$/.test(arg)) continue;
      for (let j = 1; j < arg.length; j++) {
        const ch = arg[j]!;
        const arity = s.short.get(ch);
        if (arity === undefined) return { ok: false, reason: `"${label} -${ch}" is not an option the shell tool allows` };
        seen.add(`-${ch}`);
        if (arity === "none") continue;
        // The rest of the word is the value; a required value may also be the next word.
        if (arity === "required" && j === arg.length - 1) {
          if (i + 1 >= args.length) return { ok: false, reason: `"${label} -${ch}" needs a value` };
          i++;
        }
        break;
      }
      continue;
    }
    if (stopAtOperand) return { ok: true, operands, seen, rest: args.slice(i) };
    operands.push(arg);
  }
  return { ok: true, operands, seen, rest: [] };
}

// GNU coreutils and grep: reading options only. None of these programs has an option that runs another.
const LS = spec(
  "aAbBcCdfFgGhHiklLmnNopqQrRsStuUvxXZ1I:T:w:",
  `all almost-all author escape block-size= ignore-backups color[=] directory dired classify[=] file-type
   format= full-time group-directories-first no-group human-readable si dereference-command-line
   dereference-command-line-symlink-to-dir hide= hyperlink[=] indicator-style= inode ignore= kibibytes
   dereference numeric-uid-gid literal hide-control-chars show-control-chars quote-name quoting-style=
   reverse recursive size sort= time= time-style= tabsize= width= context zero version`,
);
const CAT = spec("AbeEnstTuv", "show-all number-nonblank show-ends number squeeze-blank show-tabs show-nonprinting version");
const WC = spec("cmlLw", "bytes chars lines max-line-length words total= version");
const HEAD = spec("c:n:qvz", "bytes= lines= quiet silent verbose zero-terminated version", { numeric: true });
const TAIL = spec("c:n:fFqvzs:", "bytes= lines= follow[=] retry max-unchanged-stats= quiet silent sleep-interval= verbose zero-terminated version", {
  numeric: true,
});
const GREP = spec(
  "EFGPiyvwxcLloqsbHhnTZzrRaIUVe:f:m:A:B:C:d:D:",
  `extended-regexp fixed-strings basic-regexp perl-regexp regexp= file= ignore-case no-ignore-case
   word-regexp line-regexp null-data no-messages invert-match version max-count= byte-offset line-number
   no-line-number line-buffered with-filename no-filename label= only-matching quiet silent binary-files=
   text directories= devices= recursive dereference-recursive include= exclude= exclude-from= exclude-dir=
   files-without-match files-with-matches count initial-tab null before-context= after-context= context=
   color[=] colour[=]`,
  { numeric: true },
);

// git: read-only subcommands, each with the options known to only read.
const DIFF_LONG = `patch no-patch raw patch-with-raw patch-with-stat stat[=] compact-summary numstat shortstat
  dirstat[=] summary name-only name-status full-index binary abbrev[=] find-renames[=] find-copies[=]
  no-renames relative[=] no-relative text ignore-cr-at-eol ignore-space-at-eol ignore-space-change
  ignore-all-space ignore-blank-lines function-context exit-code quiet no-ext-diff no-textconv color[=]
  no-color color-moved[=] no-color-moved word-diff[=] word-diff-regex= color-words[=] no-prefix
  src-prefix= dst-prefix= line-prefix= minimal patience histogram diff-algorithm= anchored= indent-heuristic
  no-indent-heuristic check ws-error-highlight= diff-filter= pickaxe-all pickaxe-regex find-object= unified=
  inter-hunk-context= stat-width= stat-name-width= stat-count= stat-graph-width=`;
const DIFF_SHORT = "pusRzawbWM::B::S:G:U:";
const REV_LONG = `oneline abbrev-commit no-abbrev-commit graph all first-parent merges no-merges reverse topo-order
  date-order author-date-order left-right cherry-pick cherry-mark cherry boundary ancestry-path
  simplify-by-decoration full-history dense sparse simplify-merges no-walk[=] do-walk all-match invert-grep
  regexp-ignore-case extended-regexp fixed-strings perl-regexp basic-regexp decorate[=] no-decorate source
  use-mailmap mailmap no-mailmap no-use-mailmap relative-date parents children follow full-diff log-size cc
  combined-all-paths remove-empty walk-reflogs notes[=] no-notes max-count= skip= since= after= until=
  before= author= committer= grep= format= pretty[=] date= min-parents= max-parents= branches[=] tags[=]
  remotes[=] glob= exclude= encoding= diff-merges= decorate-refs= decorate-refs-exclude=`;
const LOG = spec(`${DIFF_SHORT}n:iEFPmgL:`, `${DIFF_LONG} ${REV_LONG}`, {
  numeric: true,
  forced: ["--no-ext-diff", "--no-textconv"],
});
const listingOnly = (sub: string) => (operands: readonly string[], seen: ReadonlySet<string>) =>
  operands.length > 0 && !seen.has("-l") && !seen.has("--list")
    ? `"git ${sub} ${operands[0]}" would create a ${sub}; only listing is allowed (use --list to filter by pattern)`
    : null;

const GIT_SUBCOMMAND_SPECS: [string, CommandSpec][] = [
  [
    "status",
    spec(
      "sbvzu::",
      "short branch show-stash long verbose ahead-behind no-ahead-behind renames no-renames no-column porcelain[=] untracked-files[=] ignored[=] find-renames[=] column[=]",
    ),
  ],
  ["log", LOG],
  ["show", LOG],
  ["diff", spec(DIFF_SHORT, `${DIFF_LONG} cached staged merge-base no-index`, { forced: ["--no-ext-diff", "--no-textconv"] })],
  [
    "grep",
    spec(
      "nIiwvlLchHEGFPqzoWpare:f:A:B:C:m:",
      `line-number ignore-case word-regexp invert-match files-with-matches name-only files-without-match count
       full-name extended-regexp basic-regexp fixed-strings perl-regexp and or not all-match quiet null
       only-matching column function-context show-function heading break no-color untracked no-index cached
       exclude-standard no-exclude-standard text recursive no-recursive no-textconv after-context=
       before-context= context= max-depth= threads= max-count= color[=]`,
      { numeric: true, forced: ["--no-textconv"] },
    ),
  ],
  [
    "blame",
    spec("ltsewpnfcL:M::C::", "porcelain line-porcelain incremental root show-stats show-number show-name minimal no-textconv date= abbrev[=]", {
      forced: ["--no-textconv"],
    }),
  ],
  [
    "ls-files",
    spec(
      "cdmoiskuztvfx:X:",
      "cached deleted modified others ignored stage unmerged killed directory no-empty-directory exclude-standard error-unmatch full-name eol deduplicate exclude= exclude-from= exclude-per-directory= format= abbrev[=]",
    ),
  ],
  ["ls-tree", spec("drtlz", "long name-only name-status object-only full-name full-tree abbrev[=] format=")],
  [
    "rev-parse",
    spec(
      "q",
      "show-toplevel show-prefix show-cdup git-dir absolute-git-dir git-common-dir is-inside-work-tree is-inside-git-dir is-bare-repository is-shallow-repository symbolic symbolic-full-name verify quiet all branches[=] tags[=] remotes[=] show-object-format[=] abbrev-ref[=] short[=]",
    ),
  ],
  [
    "branch",
    spec(
      "arvli",
      "all remotes verbose list show-current no-color no-column ignore-case color[=] abbrev[=] contains= no-contains= merged= no-merged= points-at= sort= format=",
      {
        operands: listingOnly("branch"),
      },
    ),
  ],
  [
    "tag",
    spec("lin::", "list no-column ignore-case contains= no-contains= merged= no-merged= points-at= sort= format=", {
      operands: listingOnly("tag"),
    }),
  ],
  ["cat-file", spec("tsep", "")],
  ["describe", spec("", "tags all always long exact-match first-parent contains match= exclude= candidates= abbrev[=]")],
  ["shortlog", spec("sne", "summary numbered email committer format[=] group= all since= until= after= before=")],
  [
    "rev-list",
    spec("n:", "count all first-parent merges no-merges reverse left-right objects max-count= skip= since= until= after= before= author=", { numeric: true }),
  ],
  ["show-ref", spec("dsq", "heads tags head dereference verify quiet hash[=] abbrev[=]")],
  ["for-each-ref", spec("", "format= sort= count= contains= no-contains= merged= no-merged= points-at= shell perl python tcl ignore-case")],
  ["merge-base", spec("a", "all is-ancestor octopus independent fork-point")],
  ["version", spec("", "build-options")],
];
export const GIT_SUBCOMMANDS: ReadonlyMap<string, CommandSpec> = new Map(GIT_SUBCOMMAND_SPECS.map(([name, s]) => [name, { ...s, longValueAttached: true }]));

const GIT_GLOBAL = spec("P", "no-pager no-optional-locks literal-pathspecs version");

/**
 * Prepended to every git command: repository (or any) config must not choose a pager, an fsmonitor
 * or hook program, signature verifier, submodule recursion or a transport. `-c` outranks the
 * repository's own config. Keys that cannot be neutralized here are refused by shell-git-config.
 */
export const GIT_FORCED_GLOBAL: readonly string[] = [
  "--no-pager",
  "--no-optional-locks",
  ...[
    "core.pager=cat",
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "log.showSignature=false",
    "gpg.program=false",
    "gpg.ssh.program=false",
    "gpg.x509.program=false",
    "diff.ignoreSubmodules=all",
    "submodule.recurse=false",
    "protocol.allow=never",
  ].flatMap((kv) => ["-c", kv]),
];

const FIND_OPERATORS = new Set(["(", ")", "!", ",", "-not", "-and", "-a", "-or", "-o"]);
/** find primaries (tests, options, printing actions) and how many words each takes. */
const FIND_PRIMARIES: ReadonlyMap<string, number> = new Map([
  ...`name iname path ipath wholename iwholename regex iregex regextype type xtype size mtime mmin atime amin
    ctime cmin newer anewer cnewer perm user group uid gid links inum samefile lname ilname used maxdepth
    mindepth printf`
    .split(/\s+/)
    .filter(Boolean)
    .map((p) => [`-${p}`, 1] as const),
  ...`empty readable writable executable true false nouser nogroup depth xdev mount follow noleaf
    ignore_readdir_race noignore_readdir_race daystart print print0 ls prune quit`
    .split(/\s+/)
    .filter(Boolean)
    .map((p) => [`-${p}`, 0] as const),
]);

/** find's own grammar: [-H|-L|-P] starting points, then an expression of allowed primaries only. */
function checkFind(args: readonly string[]): string | null {
  let i = 0;
  while (i < args.length && ["-H", "-L", "-P"].includes(args[i]!)) i++;
  while (i < args.length && !args[i]!.startsWith("-") && !FIND_OPERATORS.has(args[i]!)) i++;
  for (; i < args.length; i++) {
    const word = args[i]!;
    if (FIND_OPERATORS.has(word)) continue;
    const arity = FIND_PRIMARIES.get(word);
    if (arity === undefined) {
      return /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/.test(word)
        ? `"find ${word}" is refused: it runs other programs or writes files`
        : `"find ${word}" is not a find primary the shell tool allows`;
    }
    if (i + arity >= args.length && arity > 0) return `"find ${word}" needs a value`;
    i += arity;
  }
  return null;
}

function checkGit(args: readonly string[]): string | null {
  const global = parseOptions("git", GIT_GLOBAL, args, true);
  if (!global.ok) return global.reason;
  const [sub, ...rest] = global.rest;
  if (sub === undefined) return null;
  const s = GIT_SUBCOMMANDS.get(sub);
  if (!s) {
    return `"git ${sub}" is not allowed: only read-only subcommands run (${[...GIT_SUBCOMMANDS.keys()].join(", ")})`;
  }
  const parsed = parseOptions(`git ${sub}`, s, rest);
  if (!parsed.ok) return parsed.reason;
  return s.operands?.(parsed.operands, parsed.seen) ?? null;
}

const PROGRAMS: ReadonlyMap<string, (args: readonly string[]) => string | null> = new Map([
  ["find", checkFind],
  ["git", checkGit],
  ...(
    [
      ["ls", LS],
      ["cat", CAT],
      ["wc", WC],
      ["head", HEAD],
      ["tail", TAIL],
      ["grep", GREP],
    ] as const
  ).map(
    ([name, s]) =>
      [
        name,
        (args: readonly string[]) => {
          const parsed = parseOptions(name, s, args);
          return parsed.ok ? null : parsed.reason;
        },
      ] as const,
  ),
]);

/** Programs whose arguments the tool checks; any other allowlisted program gets its arguments unchecked. */
export const CHECKED_PROGRAMS: readonly string[] = [...PROGRAMS.keys()].sort();

/** Why `program args` is refused by its allow-list, or null. Unknown programs are the settings' choice. */
export function programArgumentsRefusal(program: string, args: readonly string[]): string | null {
  return PROGRAMS.get(program)?.(args) ?? null;
}

/** The words run for an admitted git command: the forced global options and per-subcommand flags added. */
export function hardenGit(args: readonly string[]): string[] {
  const global = parseOptions("git", GIT_GLOBAL, args, true);
  const rest = global.ok ? global.rest : [];
  const globals = args.slice(0, args.length - rest.length);
  const [sub, ...subArgs] = rest;
  if (sub === undefined) return [...GIT_FORCED_GLOBAL, ...globals];
  return [...GIT_FORCED_GLOBAL, ...globals, sub, ...(GIT_SUBCOMMANDS.get(sub)?.forced ?? []), ...subArgs];
}
