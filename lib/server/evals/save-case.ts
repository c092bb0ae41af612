import "server-only";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Document, isSeq, parseDocument, type YAMLSeq } from "yaml";
import { assertJudgesUsable } from "@/lib/evals/judge";
import { parseSuite, SuiteError } from "@/lib/evals/suite";
import { caseSchema } from "@/lib/evals/suite-schema";
import { resolveWithin } from "@/lib/sandbox/resolve";
import { walkSync } from "@/lib/sandbox/walk";
import { audit } from "@/lib/server/auth/audit";
import { HttpError } from "@/lib/server/http/http-error";
import { sourceRootOf } from "@/lib/settings";
import type { Settings } from "@/lib/settings/schema";
import { SUITE_SUFFIX } from "./suites";

/** Saved cases go into suites in this folder of the source root, and nowhere else. */
export const CASES_DIR = "evals";
/** The picker lists at most this many suite files. */
const MAX_LISTED = 200;
/** Each part of a suite's path under evals/: what a suite name may hold, so a new file names its suite. */
const SEGMENT = /^[\w.-]+$/;

export interface CaseFile {
  /** Relative to `<sourceRoot>/evals/`. */
  file: string;
  name: string | null;
  cases: number | null;
  error: string | null;
}

function evalsDir(settings: Settings): { root: string; abs: string | null } {
  const root = sourceRootOf(settings);
  const dir = resolveWithin(root, CASES_DIR);
  if (!dir.ok) throw new HttpError(400, dir.error.replace(/^Error: /, ""), "bad_path");
  // A link in the source root's place for evals/ would move the writes elsewhere: refused.
  if (dir.rel !== CASES_DIR)
    throw new HttpError(400, `${CASES_DIR}/ in the source root is a link to ${dir.rel}; saved cases go into a real ${CASES_DIR}/ folder.`, "bad_path");
  if (dir.stat && !dir.stat.isDirectory()) throw new HttpError(400, `${CASES_DIR} in the source root is not a folder.`, "bad_path");
  return { root: dir.root, abs: dir.stat ? dir.abs : null };
}

/** The suite files a case can be saved into: `*.eval.yaml` under the source root's evals/, with their case counts. */
export function caseFiles(settings: Settings): { folder: string; files: CaseFile[] } {
  const { root, abs } = evalsDir(settings);
  const files: CaseFile[] = [];
  if (abs) {
    for (const entry of walkSync(root, CASES_DIR)) {
      if (!entry.name.endsWith(SUITE_SUFFIX)) continue;
      const file = entry.rel.slice(CASES_DIR.length + 1);
      try {
        const suite = parseSuite(fs.readFileSync(entry.abs, "utf8"), entry.rel);
        files.push({ file, name: suite.name, cases: suite.cases.length, error: null });
      } catch (error) {
        files.push({ file, name: null, cases: null, error: (error as Error).message });
      }
      if (files.length >= MAX_LISTED) break;
    }
  }
  return { folder: `${CASES_DIR}/`, files };
}

export interface SaveCaseInput {
  /** The suite file, relative to evals/: an existing one, or a new name ending .eval.yaml. */
  file: string;
  /** The case as YAML or JSON (JSON is YAML). */
  text: string;
  /** Check everything, write nothing. */
  dryRun?: boolean;
}

export interface SaveCaseResult {
  file: string;
  caseName: string;
  /** Cases in the suite after the save. */
  cases: number;
  created: boolean;
  saved: boolean;
}

const invalid = (lines: string[]) => new HttpError(400, lines.join("\n"), "invalid_case");

/** The case text checked against the suite schema; every problem one line naming its key. Its node (with its comments) goes into the suite. */
function readCase(text: string): { raw: Record<string, unknown>; node: unknown; yaml: string } {
  const doc = parseDocument(text, { prettyErrors: false });
  if (doc.errors.length) throw invalid(doc.errors.map((e) => `YAML: ${e.message.split("\n")[0]}`));
  const raw: unknown = doc.toJS();
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw invalid(["the case must be a mapping (name, prompt, expect, …)"]);
  const parsed = caseSchema.safeParse(raw);
  if (!parsed.success) throw invalid(parsed.error.issues.map((i) => `${i.path.length ? `key ${i.path.map(String).join(".")}` : "the case"}: ${i.message}`));
  return { raw: raw as Record<string, unknown>, node: doc.contents, yaml: doc.toString() };
}

/** Where the file is: inside evals/ (links resolved), ending .eval.yaml, each part a plain name. */
function target(settings: Settings, file: string): { abs: string; rel: string; exists: boolean; dirAbs: string } {
  const parts = file.split("/");
  if (!file.endsWith(SUITE_SUFFIX) || file.length === SUITE_SUFFIX.length)
    throw new HttpError(400, `The suite file must be named like name${SUITE_SUFFIX} (got ${JSON.stringify(file)}).`, "bad_path");
  if (parts.some((p) => !SEGMENT.test(p) || p === "." || p === ".."))
    throw new HttpError(
      400,
      `The suite file's path may hold letters, digits, '.', '_', '-' and folders under ${CASES_DIR}/ only (got ${JSON.stringify(file)}).`,
      "bad_path",
    );
  const { root } = evalsDir(settings);
  const resolved = resolveWithin(root, `${CASES_DIR}/${file}`);
  if (!resolved.ok) throw new HttpError(400, resolved.error.replace(/^Error: /, ""), "bad_path");
  if (resolved.rel !== `${CASES_DIR}/${file}`)
    throw new HttpError(400, `${CASES_DIR}/${file} is a link (to ${resolved.rel}); saved cases go into real files under ${CASES_DIR}/.`, "bad_path");
  if (resolved.stat && !resolved.stat.isFile()) throw new HttpError(400, `${CASES_DIR}/${file} is not a file.`, "bad_path");
  return { abs: resolved.abs, rel: resolved.rel, exists: resolved.stat !== null, dirAbs: path.dirname(resolved.abs) };
}

/**
 * The file's text with an item (a suite's case, a collection's call) added as the last of its
 * block-style list, the rest byte for byte (re-printing the whole document would restyle its flow
 * collections); undefined when the list is not in block style.
 */
export function appendBlockItem(text: string, seq: YAMLSeq, caseYaml: string): string | undefined {
  const [start, end] = seq.range ?? [];
  if (seq.flow || start === undefined || end === undefined || text[start] !== "-") return undefined;
  const indent = text.slice(text.lastIndexOf("\n", start - 1) + 1, start);
  if (!/^ *$/.test(indent)) return undefined;
  const item = caseYaml
    .trimEnd()
    .split("\n")
    .map((line, i) => (i === 0 ? `${indent}- ${line}` : line ? `${indent}  ${line}` : line))
    .join("\n");
  const head = text.slice(0, end);
  return `${head}${head.endsWith("\n") ? "" : "\n"}${item}\n${text.slice(end)}`;
}

/** The splice read back as the edited document: the same items of `list` (cases, calls), in the same order. */
export function sameNames(text: string, names: unknown[], list = "cases"): boolean {
  const doc = parseDocument(text);
  const cases = doc.errors.length ? undefined : (doc.toJS() as Record<string, { name?: unknown }[] | undefined> | null)?.[list];
  return Array.isArray(cases) && cases.length === names.length && cases.every((c, i) => c?.name === names[i]);
}

/** A temp file beside it, then a rename: a reader sees the old file or the new one, never half. */
export function writeAtomic(file: string, text: string): void {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`);
  try {
    fs.writeFileSync(temp, text, { flag: "wx" });
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Appends a case to a suite under `<sourceRoot>/evals/` (or starts a new suite there). The file's
 * other content — comments, order, style — is kept (the yaml Document API edits it in place); a
 * case name the suite has is refused (409); the result must load as a suite, or nothing is written.
 * Read, check and write are synchronous (nothing is awaited before the write), so two saves in this
 * process cannot interleave; the audit line follows the write.
 */
export async function saveCase(settings: Settings, input: SaveCaseInput): Promise<SaveCaseResult> {
  const { raw, node, yaml } = readCase(input.text);
  const caseName = String(raw.name);
  const where = target(settings, input.file);
  let doc: Document;
  let created = false;
  // The new text: the case spliced in after the last one (every other byte as it was), else the edited document.
  let text: string | undefined;
  if (where.exists) {
    const before = fs.readFileSync(where.abs, "utf8");
    try {
      parseSuite(before, where.rel);
    } catch (error) {
      throw new HttpError(400, `${where.rel} does not load as a suite now; fix it first:\n${(error as Error).message}`, "invalid_suite");
    }
    doc = parseDocument(before);
    const cases = doc.get("cases", true);
    if (!isSeq(cases)) throw new HttpError(400, `${where.rel}: cases is not a list.`, "invalid_suite");
    if (cases.items.some((item) => (item as { get?: (k: string) => unknown }).get?.("name") === caseName))
      throw new HttpError(409, `${where.rel} has a case named "${caseName}" already: choose another name.`, "duplicate_case");
    cases.items.push(node);
    text = appendBlockItem(before, cases, yaml);
  } else {
    created = true;
    doc = new Document({ name: path.basename(input.file).slice(0, -SUITE_SUFFIX.length), cases: [] });
    (doc.get("cases", true) as { items: unknown[] }).items.push(node);
    doc.commentBefore = " Saved from Toolroom (Save as eval case). Keys: see Toolroom's docs/evals.md (the suite format).";
  }
  const names = (doc.toJS() as { cases: { name?: unknown }[] }).cases.map((c) => c.name);
  if (text === undefined || !sameNames(text, names)) text = doc.toString();
  let cases: number;
  try {
    const suite = parseSuite(text, where.rel);
    assertJudgesUsable(suite, settings, where.rel);
    cases = suite.cases.length;
  } catch (error) {
    if (error instanceof SuiteError) throw invalid([error.message]);
    throw error;
  }
  if (!input.dryRun) {
    if (created) fs.mkdirSync(where.dirAbs, { recursive: true });
    writeAtomic(where.abs, text);
    await audit("eval.case-saved", where.rel, { case: caseName, created });
  }
  return { file: input.file, caseName, cases, created, saved: !input.dryRun };
}
