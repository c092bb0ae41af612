/**
 * Eval runs in eval vocabulary: the case grid, the per-model recommendation, a case's
 * expected-vs-actual diff, and two runs' case changes. Built from what lib/artifacts read; the
 * counting and matching are lib/evals' own (the CLI uses the same modules).
 */
import { diffCalls } from "@/lib/evals/call-diff";
import { caseGrid } from "@/lib/evals/case-grid";
import { diffRuns, runFacts, type EvalRunFacts } from "@/lib/evals/diff";
import { configuredModes, recommend } from "@/lib/evals/recommend";
import type { EvalCases } from "../eval-cases";
import type { RunData } from "../run";
import type { EvalCaseDetail, EvalCellDelta, EvalRowFacts, EvalRunView, RunDiff } from "./types";

/** An eval run: a matrix written by `toolroom eval` beside its cases.json. */
function isEvalRun(run: RunData): boolean {
  return run.matrix?.ok === true && run.matrix.data.extra.producer === "toolroom eval" && run.evalCases !== undefined;
}

/**
 * An eval run as the runs table and a comparison's headers show it: suite, cells, cases and trials
 * passed over trials run (from the matrix), in place of a harness run's ticket, layout and verdict.
 */
export function evalRow(run: RunData): EvalRowFacts | null {
  if (!isEvalRun(run) || !run.matrix?.ok) return null;
  const matrix = run.matrix.data;
  let passed = 0;
  let trials = 0;
  for (const c of matrix.cells) {
    passed += c.passed_count ?? 0;
    trials += c.trials ?? 0;
  }
  const cases = run.evalCases?.ok ? run.evalCases.data : null;
  // Runs written before cases.json kept the expectations know their cases from the trials alone.
  const caseNames = new Set([...Object.keys(cases?.expectations ?? {}), ...(cases?.trials ?? []).map((t) => t.case)]);
  return { suite: cases?.suite ?? matrix.header.workload ?? run.entry.rel, cells: matrix.cells.length, cases: caseNames.size, passed, trials };
}

function gridOf(run: RunData) {
  if (!isEvalRun(run) || !run.evalCases?.ok) return null;
  const cases = run.evalCases.data;
  const matrix = run.matrix!.ok ? run.matrix!.data : null;
  const grid = caseGrid(cases.trials, { cells: matrix?.cells.flatMap((c) => (c.name ? [c.name] : [])) ?? [], cases: Object.keys(cases.expectations) });
  return { cases, matrix, grid };
}

export function evalRunView(run: RunData): EvalRunView | null {
  const read = gridOf(run);
  if (!read) return null;
  const { cases, matrix, grid } = read;
  return {
    suite: cases.suite ?? matrix?.header.workload ?? run.entry.rel,
    partial: cases.partial,
    trialsRun: cases.trials.length,
    trialsTotal: cases.total,
    passed: cases.trials.filter((t) => t.verdict === "pass").length,
    cases: grid.cases,
    columns: grid.columns,
    entries: grid.entries,
    flakyCases: grid.flakyCases,
    recommendations: recommend(grid.columns, configuredModes(run.env?.ok && run.env.data.kind === "probe" ? run.env.data.blocks.models : undefined)),
    hasExpectations: Object.keys(cases.expectations).length > 0,
  };
}

export function evalCaseDetail(cases: EvalCases, caseName: string, cell: string): EvalCaseDetail {
  const expect = cases.expectations[caseName] ?? null;
  const mine = cases.trials.filter((t) => t.case === caseName && t.cell === cell).sort((a, b) => a.trial - b.trial);
  return {
    case: caseName,
    cell,
    prompt: mine[0]?.prompt ?? null,
    expect: expect as Record<string, unknown> | null,
    trials: mine.map((t) => ({
      trial: t.trial,
      verdict: t.verdict,
      reasons: t.reasons,
      // Without the expectation every actual call is shown as unexpected: what was called, at least.
      rows: diffCalls(expect ?? {}, t.calls),
      answer: t.answer,
      chatId: t.chat_id,
      transcript: t.transcript !== null,
      inputTokens: t.input_tokens,
      outputTokens: t.output_tokens,
      judge: t.judge,
    })),
  };
}

function facts(run: RunData): EvalRunFacts | null {
  if (!isEvalRun(run) || !run.evalCases?.ok || !run.matrix?.ok) return null;
  const cases = run.evalCases.data;
  const recipe = run.matrix.data.header.recipe_source;
  return runFacts({ label: run.entry.rel, suite: cases.suite ?? run.matrix.data.header.workload ?? "", suiteSha: recipe?.sha256 ?? null }, cases.trials);
}

/** Two eval runs case by case; undefined unless both are eval runs. Only changed case × cells are listed. */
export function evalChanges(a: RunData, b: RunData): RunDiff["evalChanges"] {
  const fa = facts(a);
  const fb = facts(b);
  if (!fa || !fb) return undefined;
  const { details, ...rest } = diffRuns(fa, fb);
  return { ...rest, changed: details.filter((d) => d.change !== "unchanged") };
}

/**
 * Two eval runs cell by cell in eval figures — pass rate, trials, tokens a trial — for the cells
 * both have (in A's order); undefined unless both are eval runs.
 */
export function evalCellChanges(a: RunData, b: RunData): EvalCellDelta[] | undefined {
  const ga = gridOf(a)?.grid;
  const gb = gridOf(b)?.grid;
  if (!ga || !gb) return undefined;
  const side = (c: (typeof ga.columns)[number]) => ({ passRate: c.passRate, passed: c.passed, trials: c.trials, tokens: c.tokens });
  return ga.columns.flatMap((ca) => {
    const cb = gb.columns.find((c) => c.name === ca.name);
    if (!cb) return [];
    return [{ name: ca.name, a: side(ca), b: side(cb), passRateDelta: ca.trials && cb.trials ? cb.passRate - ca.passRate : null }];
  });
}
