/**
 * The work a parse worker does (artifact.worker.ts), as plain functions: the pool runs small runs
 * in-thread with the same code. Inputs and outputs are structured-clone friendly and small, except
 * the cell pages, which are strings.
 */
import type { RunEntry } from "../discover";
import { readRunEntry } from "../run";
import { summarizeRun } from "../summary";
import { pageCells } from "../view/pages";
import { readEvalTranscript, type TranscriptRead } from "../eval-transcript";
import type { EvalCaseDetail, RunDiff, RunRow, RunView } from "../view/types";
import { evalCaseDetail, evalRow } from "../view/eval-view";
import { runDiffView, runRow, runView } from "../view/view-model";

/** A run view as cached: without the parts that depend on the request (override) or on other runs (children). */
export type RunViewCore = Omit<RunView, "override" | "children">;

export type ArtifactTask =
  | { op: "summary"; entry: RunEntry; maxBytes: number }
  | { op: "view"; entry: RunEntry; root: string; sizes: Record<string, number>; maxBytes: number }
  | { op: "diff"; a: RunEntry; b: RunEntry; root: string; override: string | null; maxBytes: number }
  | { op: "evalCase"; entry: RunEntry; caseName: string; cell: string; maxBytes: number }
  | { op: "evalTranscript"; entry: RunEntry; caseName: string; cell: string; trial: number; maxBytes: number };

export interface ViewResult {
  row: RunRow;
  view: RunViewCore;
  pages: string[];
}

export type TaskResult<T extends ArtifactTask> = T extends { op: "summary" }
  ? RunRow
  : T extends { op: "diff" }
    ? RunDiff
    : T extends { op: "evalCase" }
      ? EvalCaseDetail
      : T extends { op: "evalTranscript" }
        ? TranscriptRead
        : ViewResult;

export function runTask<T extends ArtifactTask>(task: T): TaskResult<T> {
  if (task.op === "diff") {
    const read = (entry: RunEntry) => readRunEntry(entry, { maxBytes: task.maxBytes });
    return runDiffView(read(task.a), read(task.b), { root: task.root, override: task.override }) as TaskResult<T>;
  }
  const run = readRunEntry(task.entry, { maxBytes: task.maxBytes });
  if (task.op === "summary") return runRow(summarizeRun(run), evalRow(run)) as TaskResult<T>;
  if (task.op === "evalCase" || task.op === "evalTranscript") {
    if (!run.evalCases) throw new Error(`${task.entry.rel} has no cases.json: it is not an eval run`);
    if (!run.evalCases.ok) throw new Error(run.evalCases.error);
    if (task.op === "evalTranscript") return readEvalTranscript(task.entry.dir, run.evalCases.data, task.caseName, task.cell, task.trial) as TaskResult<T>;
    return evalCaseDetail(run.evalCases.data, task.caseName, task.cell) as TaskResult<T>;
  }
  const { override: _o, children: _c, ...full } = runView(run, { root: task.root, override: null, sizes: task.sizes, children: [] });
  const { view, pages } = pageCells(full);
  return { row: view.row, view, pages } as TaskResult<T>;
}
