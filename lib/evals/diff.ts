/**
 * Two eval runs, case by case: what regressed, what was fixed, what is flaky now, and which cases
 * one run has and the other has not. A case is judged per cell (model × mode × protocol): all its
 * trials passed, all failed, or some of each (flaky). Pure, so the CLI and the Runs compare page
 * share it; the runs' files are read elsewhere.
 */
import { recordedCell } from "./cell-name";

export interface RunTrial {
  case: string;
  cell: string;
  verdict: string;
  /** Why it failed (the judge's reasons), when the run recorded them. */
  reasons?: readonly string[];
}

export interface EvalRunFacts {
  /** How the run is named to a person (its folder). */
  label: string;
  suite: string;
  /** The suite file's hash: another one means the cases may have changed under the same names. */
  suiteSha: string | null;
  trialsPerCase: number | null;
  models: string[];
  /** The text protocols its text cells spoke. */
  protocols: string[];
  trials: RunTrial[];
}

/** A recorded trial as the facts of a run are drawn from it (cases.json's fields). */
export interface RecordedTrial extends RunTrial {
  model: string;
  mode?: string | null;
  protocol?: string | null;
  trial: number;
}

/** A run's facts from its trials, each in the cell its model, mode and protocol name (see cell-name.ts). */
export function runFacts(run: Pick<EvalRunFacts, "label" | "suite" | "suiteSha">, recorded: readonly RecordedTrial[]): EvalRunFacts {
  const trials = recorded.map((t) => ({ ...t, cell: recordedCell(t) }));
  const perCase = new Map<string, number>();
  for (const t of trials) perCase.set(`${t.case}\u0000${t.cell}`, Math.max(perCase.get(`${t.case}\u0000${t.cell}`) ?? 0, t.trial));
  const counts = [...new Set(perCase.values())];
  return {
    ...run,
    trialsPerCase: counts.length === 1 ? counts[0]! : null,
    models: [...new Set(trials.map((t) => t.model))].sort(),
    protocols: [...new Set(trials.flatMap((t) => (t.mode === "text" && t.protocol ? [t.protocol] : [])))].sort(),
    trials,
  };
}

export type CaseState = "pass" | "fail" | "flaky";
export type CaseChange = "regressed" | "fixed" | "flaky" | "new" | "removed" | "unchanged";

export interface CaseDiff {
  case: string;
  cell: string;
  before: CaseState | null;
  after: CaseState | null;
  change: CaseChange;
  /** Why the case fails in B (its first failing trial's first reason), when it does and B says. */
  reason: string | null;
}

export interface RunDiff {
  regressed: string[];
  fixed: string[];
  flaky: string[];
  /** Cases (by name) only B has, and only A has. */
  new: string[];
  removed: string[];
  /** Cells (model × mode × protocol) only A has, and only B has: their cases are not compared there. */
  cellsRemoved: string[];
  cellsAdded: string[];
  /** Every case × cell both runs have, changed or not, and a new or removed case in each cell both runs have. */
  details: CaseDiff[];
  /** Why the two runs may not compare like for like. */
  warnings: string[];
}

interface CaseTally {
  case: string;
  cell: string;
  state: CaseState;
  reason: string | null;
}

function statesOf(trials: readonly RunTrial[]): Map<string, CaseTally> {
  const tally = new Map<string, { case: string; cell: string; passed: number; total: number; reason: string | null }>();
  for (const t of trials) {
    const key = JSON.stringify([t.case, t.cell]);
    const entry = tally.get(key) ?? { case: t.case, cell: t.cell, passed: 0, total: 0, reason: null };
    entry.total++;
    if (t.verdict === "pass") entry.passed++;
    else entry.reason ??= t.reasons?.[0] ?? null;
    tally.set(key, entry);
  }
  return new Map(
    [...tally].map(([key, e]) => [
      key,
      { case: e.case, cell: e.cell, reason: e.reason, state: e.passed === e.total ? "pass" : e.passed === 0 ? "fail" : "flaky" },
    ]),
  );
}

function changeOf(before: CaseState, after: CaseState): CaseChange {
  if (after === "flaky") return "flaky";
  if (after === "fail" && before !== "fail") return "regressed";
  if (after === "pass" && before !== "pass") return "fixed";
  return "unchanged";
}

const only = (mine: ReadonlySet<string>, theirs: ReadonlySet<string>) => [...mine].filter((x) => !theirs.has(x)).sort();

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);

export function diffRuns(a: EvalRunFacts, b: EvalRunFacts): RunDiff {
  const warnings: string[] = [];
  if (a.suite !== b.suite) warnings.push(`the runs are of different suites: ${a.suite} and ${b.suite}`);
  else if (a.suiteSha && b.suiteSha && a.suiteSha !== b.suiteSha)
    warnings.push(`the suite file changed between the runs (${a.suiteSha.slice(0, 12)} → ${b.suiteSha.slice(0, 12)})`);
  if (a.trialsPerCase !== b.trialsPerCase) warnings.push(`the runs differ in trials per case: ${a.trialsPerCase ?? "?"} and ${b.trialsPerCase ?? "?"}`);
  if (!sameSet(a.models, b.models)) warnings.push(`the runs differ in models: ${a.models.join(", ") || "none"} and ${b.models.join(", ") || "none"}`);
  if (!sameSet(a.protocols, b.protocols))
    warnings.push(`the runs differ in text protocols: ${a.protocols.join(", ") || "none"} and ${b.protocols.join(", ") || "none"}`);
  const before = statesOf(a.trials);
  const after = statesOf(b.trials);
  const casesOf = (run: EvalRunFacts) => new Set(run.trials.map((t) => t.case));
  const cellsOf = (run: EvalRunFacts) => new Set(run.trials.map((t) => t.cell));
  const [casesA, casesB, cellsA, cellsB] = [casesOf(a), casesOf(b), cellsOf(a), cellsOf(b)];
  // A model or protocol one run left out takes its cells, not its cases: those cells are named, not compared.
  const cellsRemoved = only(cellsA, cellsB);
  const cellsAdded = only(cellsB, cellsA);
  if (cellsRemoved.length) warnings.push(`cells only in run A, not compared: ${cellsRemoved.join(", ")}`);
  if (cellsAdded.length) warnings.push(`cells only in run B, not compared: ${cellsAdded.join(", ")}`);
  const details: CaseDiff[] = [];
  let unpaired = 0;
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const x = before.get(key);
    const y = after.get(key);
    const { case: name, cell } = (x ?? y)!;
    const row = { case: name, cell, before: x?.state ?? null, after: y?.state ?? null, reason: y && y.state !== "pass" ? y.reason : null };
    // A cell only one run has is not compared, not even for a new or removed case (it is a warning).
    if (!cellsA.has(cell) || !cellsB.has(cell)) continue;
    if (!casesA.has(name)) details.push({ ...row, change: "new" });
    else if (!casesB.has(name)) details.push({ ...row, change: "removed" });
    else if (!x || !y) unpaired++;
    else details.push({ ...row, change: changeOf(x.state, y.state) });
  }
  // Both runs have the case and the cell but one never ran it there: a partial run.
  if (unpaired) warnings.push(`${unpaired} case × cell ${unpaired === 1 ? "pair" : "pairs"} ran in only one of the runs (a partial run?), not compared`);
  details.sort((p, q) => p.case.localeCompare(q.case) || p.cell.localeCompare(q.cell));
  const named = (change: CaseChange) => [...new Set(details.filter((d) => d.change === change).map((d) => d.case))];
  return {
    regressed: named("regressed"),
    fixed: named("fixed"),
    flaky: named("flaky"),
    new: only(casesB, casesA),
    removed: only(casesA, casesB),
    cellsRemoved,
    cellsAdded,
    details,
    warnings,
  };
}
