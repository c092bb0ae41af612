// search_repo_map: a symbol index of the source root. Longer than most tool files because it holds
// both symbol readers (TypeScript through its compiler API, Python by indentation) beside the tool.
import path from "node:path";
import type * as TS from "typescript";
import { z } from "zod";
import { defineTool } from "@/lib/tools/define";
import { cacheDirFor, sharedFileIndex } from "@/lib/sandbox/file-index";
import { resolveWithin } from "@/lib/sandbox/resolve";
import { refreshAgeMs } from "./search";

const MAX_SHOWN = 30;
const MAX_SIGNATURE = 200;
const MAX_FILE_BYTES = 1024 * 1024;
const INDEX_VERSION = "repomap-v1";

const TS_EXTENSIONS = new Set([".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"]);
const PY_EXTENSIONS = new Set([".py", ".pyi"]);

/** One symbol: its 1-based line and a one-line signature. */
export type RepoMapEntry = [line: number, signature: string];

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > MAX_SIGNATURE ? `${flat.slice(0, MAX_SIGNATURE - 1)}…` : flat;
}

// The compiler is large: load it on the first repo-map call, not with the registry.
let tsModule: typeof TS | null = null;
async function loadTypeScript(): Promise<typeof TS> {
  if (!tsModule) {
    const mod = (await import("typescript")) as unknown as { default?: typeof TS } & typeof TS;
    tsModule = mod.default ?? mod;
  }
  return tsModule;
}

/** Symbols of a TypeScript/JavaScript file via the compiler's parser (no type checking). */
export function typescriptSymbols(ts: typeof TS, text: string, fileName: string): RepoMapEntry[] {
  const kind = fileName.endsWith("x")
    ? fileName.endsWith(".tsx")
      ? ts.ScriptKind.TSX
      : ts.ScriptKind.JSX
    : fileName.match(/\.[mc]?js$/)
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const out: RepoMapEntry[] = [];
  const src = (node: TS.Node | undefined) => (node ? node.getText(sf) : "");
  const lineOf = (node: TS.Node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  const typeParams = (tp: TS.NodeArray<TS.TypeParameterDeclaration> | undefined) => (tp && tp.length ? `<${tp.map(src).join(", ")}>` : "");
  const params = (fn: TS.SignatureDeclarationBase) =>
    `${typeParams(fn.typeParameters)}(${fn.parameters.map(src).join(", ")})${fn.type ? `: ${src(fn.type)}` : ""}`;
  const heritage = (clauses: TS.NodeArray<TS.HeritageClause> | undefined) => (clauses ? ` ${clauses.map(src).join(" ")}` : "");
  const isExported = (node: TS.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  const add = (node: TS.Node, signature: string) => out.push([lineOf(node), oneLine(signature)]);
  const nameOf = (name: TS.PropertyName | TS.BindingName | undefined) => (name ? src(name) : "default");

  const visitClassMembers = (cls: TS.ClassLikeDeclaration, owner: string) => {
    for (const member of cls.members) {
      if (ts.isMethodDeclaration(member)) add(member, `method ${owner}.${nameOf(member.name)}${params(member)}`);
      else if (ts.isConstructorDeclaration(member)) add(member, `method ${owner}.constructor${params(member)}`);
      else if (ts.isGetAccessorDeclaration(member)) add(member, `get ${owner}.${nameOf(member.name)}()${member.type ? `: ${src(member.type)}` : ""}`);
      else if (
        ts.isPropertyDeclaration(member) &&
        member.initializer &&
        (ts.isArrowFunction(member.initializer) || ts.isFunctionExpression(member.initializer))
      ) {
        add(member, `method ${owner}.${nameOf(member.name)}${params(member.initializer)}`);
      }
    }
  };

  const visit = (statements: readonly TS.Statement[], prefix: string) => {
    for (const stmt of statements) {
      if (ts.isFunctionDeclaration(stmt)) {
        add(stmt, `function ${prefix}${nameOf(stmt.name)}${params(stmt)}`);
      } else if (ts.isClassDeclaration(stmt)) {
        const name = `${prefix}${nameOf(stmt.name)}`;
        add(stmt, `class ${name}${typeParams(stmt.typeParameters)}${heritage(stmt.heritageClauses)}`);
        visitClassMembers(stmt, name);
      } else if (ts.isInterfaceDeclaration(stmt)) {
        add(stmt, `interface ${prefix}${stmt.name.text}${typeParams(stmt.typeParameters)}${heritage(stmt.heritageClauses)}`);
      } else if (ts.isTypeAliasDeclaration(stmt)) {
        const body = oneLine(src(stmt.type));
        add(stmt, `type ${prefix}${stmt.name.text}${typeParams(stmt.typeParameters)} = ${body.length > 80 ? `${body.slice(0, 79)}…` : body}`);
      } else if (ts.isEnumDeclaration(stmt)) {
        add(stmt, `enum ${prefix}${stmt.name.text}`);
      } else if (ts.isModuleDeclaration(stmt)) {
        const name = `${prefix}${src(stmt.name)}`;
        add(stmt, `namespace ${name}`);
        if (stmt.body && ts.isModuleBlock(stmt.body)) visit(stmt.body.statements, `${name}.`);
      } else if (ts.isVariableStatement(stmt)) {
        const exported = isExported(stmt);
        const keyword = stmt.declarationList.flags & ts.NodeFlags.Const ? "const" : "let";
        for (const decl of stmt.declarationList.declarations) {
          const init = decl.initializer;
          const name = `${prefix}${nameOf(decl.name)}`;
          if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) {
            add(decl, `${keyword} ${name} = ${params(init)} =>`);
          } else if (init && ts.isClassExpression(init)) {
            add(decl, `class ${name}${heritage(init.heritageClauses)}`);
            visitClassMembers(init, name);
          } else if (exported) {
            add(decl, `${keyword} ${name}${decl.type ? `: ${src(decl.type)}` : ""}`);
          }
        }
      }
    }
  };
  visit(sf.statements, "");
  return out;
}

type TripleQuote = '"""' | "'''" | null;

/**
 * Scans one Python line for string and comment state, returning the triple-quoted string still
 * open at its end (so a docstring that mentions "def x(" is not taken for a definition).
 */
function tripleQuoteAfter(line: string, open: TripleQuote): TripleQuote {
  let i = 0;
  let state = open;
  while (i < line.length) {
    if (state) {
      const close = line.indexOf(state, i);
      if (close === -1) return state;
      i = close + 3;
      state = null;
      continue;
    }
    const ch = line[i]!;
    if (ch === "#") return null;
    if (ch === '"' || ch === "'") {
      const triple = ch.repeat(3);
      if (line.startsWith(triple, i)) {
        state = triple as TripleQuote;
        i += 3;
        continue;
      }
      // A one-line string: skip to its closing quote, honouring backslash escapes.
      i++;
      while (i < line.length && line[i] !== ch) i += line[i] === "\\" ? 2 : 1;
      i++;
      continue;
    }
    i++;
  }
  return state;
}

/** From `start` (just after the name), the text up to the ":" that ends the header, across lines. */
function pythonHeader(lines: readonly string[], lineIndex: number, start: number): string {
  let depth = 0;
  let out = "";
  let quote: string | null = null;
  for (let l = lineIndex; l < lines.length && l < lineIndex + 50; l++) {
    const line = lines[l]!;
    for (let i = l === lineIndex ? start : 0; i < line.length; i++) {
      const ch = line[i]!;
      if (quote) {
        out += ch;
        if (ch === "\\") {
          out += line[i + 1] ?? "";
          i++;
        } else if (ch === quote) quote = null;
        continue;
      }
      if (ch === "#") break;
      if (ch === '"' || ch === "'") quote = ch;
      else if (ch === "(" || ch === "[" || ch === "{") depth++;
      else if (ch === ")" || ch === "]" || ch === "}") depth--;
      else if (ch === ":" && depth <= 0) return out;
      out += ch;
    }
    quote = null;
    out += " ";
  }
  return out;
}

const PY_DEF = /^([ \t]*)(async[ \t]+)?(def|class)[ \t]+([A-Za-z_][A-Za-z0-9_]*)/;

/** Python functions, methods and classes by a line parser that skips strings and comments. */
export function pythonSymbols(text: string): RepoMapEntry[] {
  const lines = text.split(/\r?\n/);
  const out: RepoMapEntry[] = [];
  const scopes: { indent: number; name: string }[] = [];
  let open: TripleQuote = null;
  let parenDepth = 0;
  for (let l = 0; l < lines.length; l++) {
    const line = lines[l]!;
    const startsInString = open !== null;
    open = tripleQuoteAfter(line, open);
    if (startsInString) continue;
    if (parenDepth > 0) {
      // Inside a bracketed continuation: a "def" here is data, not a definition.
      parenDepth = Math.max(0, parenDepth + bracketDelta(line));
      continue;
    }
    const m = PY_DEF.exec(line);
    parenDepth = Math.max(0, bracketDelta(line));
    if (!m) continue;
    const indent = m[1]!.replace(/\t/g, "        ").length;
    while (scopes.length > 0 && scopes[scopes.length - 1]!.indent >= indent) scopes.pop();
    const name = m[4]!;
    const qualified = [...scopes.map((s) => s.name), name].join(".");
    const header = oneLine(pythonHeader(lines, l, m[0].length));
    const keyword = m[3] === "class" ? "class" : m[2] ? "async def" : "def";
    out.push([l + 1, oneLine(`${keyword} ${qualified}${header}`)]);
    scopes.push({ indent, name });
  }
  return out;
}

/** Net open brackets on a line, outside strings and comments (continuation lines are not definitions). */
function bracketDelta(line: string): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === "#") break;
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "(" || ch === "[" || ch === "{") depth++;
    else if (ch === ")" || ch === "]" || ch === "}") depth--;
  }
  return depth;
}

export function symbolsFor(ts: typeof TS, text: string, rel: string): RepoMapEntry[] {
  const ext = path.extname(rel).toLowerCase();
  if (PY_EXTENSIONS.has(ext)) return pythonSymbols(text);
  if (TS_EXTENSIONS.has(ext)) {
    try {
      return typescriptSymbols(ts, text, rel);
    } catch {
      return [];
    }
  }
  return [];
}

/** The whole map, refreshed for changed files: "path:line  signature" lines in path order. */
export async function repoMapLines(rootAbs: string, settings: Record<string, unknown>, signal?: AbortSignal): Promise<{ rel: string; text: string }[]> {
  const ts = await loadTypeScript();
  const index = sharedFileIndex<RepoMapEntry[]>("repomap", {
    rootAbs,
    cacheFile: path.join(cacheDirFor(rootAbs, settings), "repo-map.jsonl"),
    version: INDEX_VERSION,
    maxBytes: MAX_FILE_BYTES,
    accept: (rel) => {
      const ext = path.extname(rel).toLowerCase();
      return TS_EXTENSIONS.has(ext) || PY_EXTENSIONS.has(ext);
    },
    compute: (text, rel) => symbolsFor(ts, text, rel),
  });
  await index.refresh(signal, refreshAgeMs(settings));
  const rels = [...index.records.keys()].sort();
  const lines: { rel: string; text: string }[] = [];
  for (const rel of rels) {
    for (const [line, signature] of index.records.get(rel)!.data) lines.push({ rel, text: `${rel}:${line}  ${signature}` });
  }
  return lines;
}

const repoMapInput = z.object({
  query: z.string().describe("Part of a name or signature, e.g. a function name; case does not matter."),
});

export const searchRepoMap = defineTool({
  name: "search_repo_map",
  description: `Search the repository's function/class index for matching entries.

The index lists every function, class, method, interface, type, enum and exported constant of the
TypeScript/JavaScript (parsed with the TypeScript compiler) and Python files of the source root,
one per line as "path:line  signature".
Args: query — a case-insensitive substring of a name or signature.
Returns "Found N matching entries:" then at most ${MAX_SHOWN} lines, or a line starting with "Error:".`,
  input: repoMapInput,
  readonly: true,
  execute: async (input: z.input<typeof repoMapInput>, ctx) => {
    const query = typeof input.query === "string" ? input.query.trim().toLowerCase() : "";
    if (!query) return "Error: query must not be empty";
    const root = resolveWithin(ctx.sourceRoot, ".");
    if (!root.ok) return root.error;
    let lines: { rel: string; text: string }[];
    try {
      lines = await repoMapLines(root.root, ctx.settings, ctx.signal);
    } catch (err) {
      return `Error: repository map unavailable: ${(err as Error).message}`;
    }
    // Re-admitted per file: within the refresh interval the map can predate an .aiignore edit.
    const admitted = new Map<string, boolean>();
    const found: string[] = [];
    for (const { rel, text } of lines) {
      if (!text.toLowerCase().includes(query)) continue;
      let ok = admitted.get(rel);
      if (ok === undefined) {
        ok = resolveWithin(root.root, rel).ok;
        admitted.set(rel, ok);
      }
      if (ok) found.push(text);
    }
    if (found.length === 0) return `Found 0 matching entries for "${input.query}".`;
    const shown = found.slice(0, MAX_SHOWN);
    const more = found.length > MAX_SHOWN ? [`... (${found.length - MAX_SHOWN} more; refine the query)`] : [];
    return [`Found ${found.length} matching entries:`, ...shown, ...more].join("\n");
  },
});
