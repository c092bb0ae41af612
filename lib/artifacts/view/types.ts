/**
 * What the runs pages hand from the server to the browser: plain, serializable shapes built from
 * `lib/artifacts` on the server (see view-model.ts). Client components import only these types,
 * never the readers, so nothing that touches the filesystem reaches the bundle.
 */
import type { CellDelta, EnvDiff, Fact, FindingGroup, RunKind, RunLayout } from "../index";
import type { CallRow } from "@/lib/evals/call-diff";
import type { GridColumn, GridEntry, TokenTally } from "@/lib/evals/case-grid";
import type { Cost, UnknownCost } from "@/lib/evals/cost";
import type { Recommendation } from "@/lib/evals/recommend";
import type { RunDiff as EvalCaseChanges } from "@/lib/evals/diff";
import type { TraceStepView } from "@/lib/trace/view";
import type { UIMessage } from "ai";

export type { CallRow, Cost, EvalCaseChanges, GridColumn, GridEntry, Recommendation, TokenTally, UnknownCost };

export type { CellDelta, EnvDiff, Fact, FindingGroup, RunKind, RunLayout };

/** One line of the runs table. */
export interface RunRow {
  rel: string;
  layout: RunLayout;
  kind: RunKind;
  when: string | null;
  ticket: string | null;
  workload: string | null;
  case: string | null;
  cells: number | null;
  failedCells: number | null;
  verdict: string | null;
  findings: number | null;
  partialEnv: boolean | null;
  errorCount: number;
  warningCount: number;
  /** The first per-file error, shown in the row so a broken run is visible without opening it. */
  firstError: string | null;
  /** Eval runs: shown with these in place of ticket, layout, failed cells, env and verdict. */
  eval?: EvalRowFacts | null;
}

/** An eval run in a row or a comparison's header: what it ran and how much of it passed. */
export interface EvalRowFacts {
  suite: string;
  cells: number;
  cases: number;
  /** Trials passed over trials run, from the matrix. */
  passed: number;
  trials: number;
}

export interface RunListResponse {
  /** The absolute runs root that was read. */
  root: string;
  /** The `?root=` override as typed, or null when the settings' runsRoot is used. */
  override: string | null;
  /** Why the root could not be read (missing folder, not a folder, permission). */
  rootError: string | null;
  /** The default runsRoot (./runs) does not exist yet — a fresh clone: an empty state, not an error. */
  noRunsYet?: boolean;
  /** Where the bundled example runs are (absolute), for the empty state's link; null when none ship. */
  examples?: string | null;
  runs: RunRow[];
}

export interface Hint {
  text: string;
  count: number | null;
}

/** An eval cell's failing trial (matrix `failing_cases`, written by `toolroom eval`), with its stored chat. */
export interface FailingCase {
  case: string;
  trial: number | null;
  verdict: string | null;
  reason: string | null;
  chatId: string | null;
}

/** A matrix cell as the run page shows it; `null` always means "not recorded", never 0. */
export interface CellView {
  index: number;
  name: string;
  mitigations: string[] | null;
  environment: string | null;
  trials: number | null;
  passed: number | null;
  failed: number | null;
  errors: number | null;
  failureRate: number | null;
  errorRate: number | null;
  unreliable: boolean | null;
  meanMs: number | null;
  p50Ms: number | null;
  p90Ms: number | null;
  p99Ms: number | null;
  stepTimeRatio: number | null;
  exitStatus: Record<string, number> | null;
  outcomes: Record<string, number> | null;
  hints: Hint[] | null;
  trialPaths: string[] | null;
  /** Whole-cell error: the cell did not run. */
  error: string | null;
  confound: string | null;
  baseline: boolean;
  failedCell: boolean;
  /** Eval runs only: the failing trials, each linking to its chat. */
  failingCases?: FailingCase[];
}

export interface MatrixView {
  workload: string | null;
  ticket: string | null;
  schemaVersion: string | null;
  trialsPerCell: number | null;
  stepsPerTrial: number | null;
  baselineCell: string | null;
  /** Producer warnings recorded in the matrix itself. */
  producerWarnings: string[];
  missingFields: string[];
  /**
   * Column-wise (pack-cells.ts); the client unpacks them once. Only the first `cellPageSize`
   * cells travel with the page (bounded HTML); the client fetches the rest from
   * GET /api/runs/cells, page by page.
   */
  cells: PackedCells;
  cellCount: number;
  cellPageSize: number;
}

export interface EnvView {
  /** "host_env.json", "env.json" or "environments/rocm7". */
  label: string;
  /** Relative to the runs root, for the raw-file route. */
  file: string;
  kind: "probe" | "run-area" | null;
  facts: Fact[];
  /** The whole document, for the tree; null when it could not be read. */
  raw: unknown;
  error: string | null;
  partial: boolean | null;
  missingFields: string[];
}

export interface SanitizerCheckView {
  sanitizer: string | null;
  state: string | null;
  verdict: string | null;
  reason: string | null;
  findings: number;
}

export interface SanitizerView {
  overallVerdict: string | null;
  executionStatus: string | null;
  target: string | null;
  checks: SanitizerCheckView[];
  groups: FindingGroup[];
  total: number;
}

export interface RunFile {
  /** Relative to the run folder. */
  name: string;
  /** Relative to the runs root. */
  rel: string;
  size: number | null;
}

/** An eval run (`runsRoot/evals/<suite>/<timestamp>/`) in eval vocabulary: suite, cells, cases. */
export interface EvalRunView {
  suite: string;
  partial: boolean;
  trialsRun: number;
  trialsTotal: number | null;
  passed: number;
  cases: string[];
  columns: GridColumn[];
  /** `entries[case][column]`; null where the case did not run in that cell. */
  entries: (GridEntry | null)[][];
  flakyCases: string[];
  recommendations: Recommendation[];
  /** False for runs written before cases.json kept the expectations: the diff then shows actual calls only. */
  hasExpectations: boolean;
  /** Set by the server from `llms.<name>.pricing` (not cached with the view): per column, and the run's. */
  costs?: (Cost | UnknownCost)[];
  totalCost?: Cost | UnknownCost;
}

/** One case in one cell, trial by trial: expected against actual calls (GET /api/runs/eval-case). */
export interface EvalCaseDetail {
  case: string;
  cell: string;
  prompt: string | null;
  /** The case's expectation as recorded; null in older runs. */
  expect: Record<string, unknown> | null;
  trials: {
    trial: number;
    verdict: string;
    reasons: string[];
    rows: CallRow[];
    answer: string | null;
    chatId: string | null;
    /** The run folder keeps this trial's transcript (a CLI run: no stored chat); GET /api/runs/eval-transcript reads it. */
    transcript: boolean;
    inputTokens: number | null;
    outputTokens: number | null;
    judge: { verdict: string | null; reason: string | null; model: string | null } | null;
  }[];
}

/** One cell both eval runs have, side by side. */
export interface EvalCellDelta {
  name: string;
  a: EvalCellSide;
  b: EvalCellSide;
  /** b − a; null when a side ran no trial there. */
  passRateDelta: number | null;
}

interface EvalCellSide {
  passRate: number;
  passed: number;
  trials: number;
  tokens: TokenTally;
}

/** One trial's transcript from the run folder, as the run page shows it: the messages, then the steps. */
export interface EvalTranscriptView {
  case: string;
  cell: string;
  trial: number;
  messages: UIMessage[];
  steps: TraceStepView[];
  usage: { inputTokens: number | null; outputTokens: number | null };
  /** What was left out to keep the transcript bounded, in words. */
  cut: string | null;
  /** Parts of the line that were not what a transcript holds, dropped. */
  warnings: string[];
}

export interface RunView {
  root: string;
  override: string | null;
  row: RunRow;
  whenSource: string | null;
  verdictSource: string | null;
  errors: string[];
  warnings: string[];
  matrix: MatrixView | null;
  matrixError: string | null;
  envs: EnvView[];
  sanitizer: SanitizerView | null;
  sanitizerError: string | null;
  meta: Fact[] | null;
  files: RunFile[];
  /** Sibling runs one level down (a dashboard run's cases), for navigation. */
  children: RunRow[];
  /** Eval runs only. */
  eval?: EvalRunView | null;
}

export interface RunDiffSide {
  rel: string;
  when: string | null;
  verdict: string | null;
  cells: number | null;
  envLabel: string | null;
  /** Eval runs: the header shows the pass rate, not the matrix's verdict. */
  eval: EvalRowFacts | null;
}

export interface RunDiff {
  root: string;
  override: string | null;
  a: RunDiffSide;
  b: RunDiffSide;
  /** At most COMPARE_ROWS of the matched cells, those that changed most (`mostChanged`). */
  cells: CellDelta[];
  /** Over every matched cell, shown or not. */
  cellTotals: { matched: number; worse: number; better: number };
  /** The first COMPARE_NAMES names of each; the counts are of all. */
  onlyInA: string[];
  onlyInB: string[];
  onlyInACount: number;
  onlyInBCount: number;
  duplicateNames: string[];
  /** Why the matrices could not be compared (missing, unreadable), naming the run and file. */
  matrixError: string | null;
  env: EnvDiff | null;
  envError: string | null;
  /** Two eval runs: their common cells in eval figures, in place of the matrix's failure rates and step times. */
  evalCells?: EvalCellDelta[];
  /** Two eval runs: case by case (lib/evals/diff.ts), without the per-detail list. */
  evalChanges?: Omit<EvalCaseChanges, "details"> & { changed: EvalCaseChanges["details"] };
}

/**
 * Cells as they travel from server to browser, column-wise (pack-cells.ts): with thousands of cells
 * the repeated property names were over half of the page's payload.
 */
export interface PackedCells {
  keys: (keyof CellView)[];
  rows: unknown[][];
}
