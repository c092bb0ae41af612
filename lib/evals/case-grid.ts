/**
 * An eval run case by case: for each case × cell (model × mode × protocol) how many trials passed,
 * whether the case is flaky there, and per cell the pass rate, pass@k, pass^k and tokens. Pure, so
 * the run page (through lib/artifacts) and tests share it; the files are read elsewhere.
 */
import type { CaseState } from "./diff";

/** The fields of a trial record (cases.json) the grid reads. */
export interface GridTrial {
  case: string;
  cell: string;
  model: string;
  mode: string;
  protocol: string | null;
  verdict: string;
  /** From the provider's usage; null (or absent, in runs written before it was recorded) when it reported none. */
  input_tokens?: number | null;
  output_tokens?: number | null;
}

export interface GridEntry {
  passed: number;
  trials: number;
  state: CaseState;
}

export interface TokenTally {
  /** Trials whose provider reported usage; the totals are over these only. */
  reported: number;
  trials: number;
  input: number;
  output: number;
}

export interface GridColumn {
  name: string;
  model: string;
  mode: string;
  protocol: string | null;
  trials: number;
  passed: number;
  passRate: number;
  /** k = the trials each case had in this cell (the fewest, when they differ). */
  k: number;
  /** Chance that at least one of k trials of a case passes, averaged over the cases. */
  passAtK: number;
  /** Chance that all k trials of a case pass, averaged over the cases. */
  passHatK: number;
  flaky: number;
  tokens: TokenTally;
}

export interface CaseGrid {
  cases: string[];
  columns: GridColumn[];
  /** `entries[caseIndex][columnIndex]`; null where the case did not run in that cell (a partial run). */
  entries: (GridEntry | null)[][];
  /** Cases flaky in at least one cell. */
  flakyCases: string[];
}

/** n choose k, as a float (exact enough for the trial counts a run holds). */
function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

/** Unbiased pass@k from n trials with c passes (Chen et al. 2021): 1 − C(n−c, k) / C(n, k). */
export function passAtK(n: number, c: number, k: number): number {
  if (n <= 0 || k <= 0 || k > n) return 0;
  return 1 - choose(n - c, k) / choose(n, k);
}

/** pass^k (τ-bench): the chance that k trials drawn from the n all pass, C(c, k) / C(n, k). */
export function passHatK(n: number, c: number, k: number): number {
  if (n <= 0 || k <= 0 || k > n) return 0;
  return choose(c, k) / choose(n, k);
}

function caseState(passed: number, trials: number): CaseState {
  return passed === trials ? "pass" : passed === 0 ? "fail" : "flaky";
}

const counted = (n: number | null | undefined): n is number => typeof n === "number" && Number.isFinite(n);

/** Tokens of some trials; a trial counts as reported when its provider sent either number. */
function tallyTokens(trials: readonly GridTrial[]): TokenTally {
  const tally: TokenTally = { reported: 0, trials: trials.length, input: 0, output: 0 };
  for (const t of trials) {
    if (!counted(t.input_tokens) && !counted(t.output_tokens)) continue;
    tally.reported++;
    tally.input += counted(t.input_tokens) ? t.input_tokens : 0;
    tally.output += counted(t.output_tokens) ? t.output_tokens : 0;
  }
  return tally;
}

/**
 * The grid of a run's trials. Columns keep the order cells first appear in (the matrix's), or
 * `cellOrder` when given; cases likewise (`caseOrder`: the suite's).
 */
export function caseGrid(trials: readonly GridTrial[], order: { cells?: readonly string[]; cases?: readonly string[] } = {}): CaseGrid {
  const cells = [...new Set([...(order.cells ?? []), ...trials.map((t) => t.cell)])];
  const cases = [...new Set([...(order.cases ?? []), ...trials.map((t) => t.case)])];
  const cellIndex = new Map(cells.map((c, i) => [c, i]));
  const caseIndex = new Map(cases.map((c, i) => [c, i]));
  const tally = cases.map(() => cells.map(() => ({ passed: 0, trials: 0 })));
  const byCell = cells.map(() => [] as GridTrial[]);
  for (const t of trials) {
    const row = tally[caseIndex.get(t.case)!]![cellIndex.get(t.cell)!]!;
    row.trials++;
    if (t.verdict === "pass") row.passed++;
    byCell[cellIndex.get(t.cell)!]!.push(t);
  }
  const entries = tally.map((row) => row.map((e) => (e.trials ? { ...e, state: caseState(e.passed, e.trials) } : null)));
  const columns = cells
    .map((name, j): GridColumn | null => {
      const mine = byCell[j]!;
      const first = mine[0];
      const ran = entries.map((row) => row[j]).filter((e): e is GridEntry => e !== null);
      // A cell listed by the matrix that has no trial (a cancelled run) has nothing to show.
      if (!first || !ran.length) return null;
      const k = Math.min(...ran.map((e) => e.trials));
      const passed = mine.filter((t) => t.verdict === "pass").length;
      const avg = (f: (e: GridEntry) => number) => ran.reduce((s, e) => s + f(e), 0) / ran.length;
      return {
        name,
        model: first.model,
        mode: first.mode,
        protocol: first.protocol,
        trials: mine.length,
        passed,
        passRate: passed / mine.length,
        k,
        passAtK: avg((e) => passAtK(e.trials, e.passed, k)),
        passHatK: avg((e) => passHatK(e.trials, e.passed, k)),
        flaky: ran.filter((e) => e.state === "flaky").length,
        tokens: tallyTokens(mine),
      };
    })
    .filter((c): c is GridColumn => c !== null);
  const kept = columns.map((c) => cellIndex.get(c.name)!);
  const shown = entries.map((row) => kept.map((j) => row[j]!));
  return {
    cases,
    columns,
    entries: shown,
    flakyCases: cases.filter((_, i) => shown[i]!.some((e) => e?.state === "flaky")),
  };
}
