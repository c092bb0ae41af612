import { isRecord } from "./fields";
import type { Matrix, MatrixCell } from "./matrix";
import { cellLabel } from "./summary";

export interface CellSide {
  failure_rate: number | null;
  failed_count: number | null;
  trials: number | null;
  mean_step_time_ms: number | null;
  step_time_ratio: number | null;
  error: string | null;
}

export interface CellDelta {
  name: string;
  a: CellSide;
  b: CellSide;
  /** b − a; null when either side did not record it. */
  failureRateDelta: number | null;
  meanStepTimeDeltaMs: number | null;
  /** b ÷ a of the mean step time. */
  meanStepTimeRatio: number | null;
  stepTimeRatioDelta: number | null;
}

export interface MatrixComparison {
  cells: CellDelta[];
  onlyInA: string[];
  onlyInB: string[];
  /** Names that occur more than once in a matrix; only the first of each is compared. */
  duplicateNames: string[];
}

/** Whether a change is worse, better or the same; more failures and slower steps are worse. */
export type DeltaTone = "worse" | "better" | "same" | "unknown";

/** Failure-rate deltas below half a percentage point are noise at typical trial counts. */
const RATE_EPSILON = 0.005;
/** Step-time changes within 2% of A are noise. */
const TIME_EPSILON = 0.02;

export function rateTone(delta: number | null): DeltaTone {
  if (delta === null || !Number.isFinite(delta)) return "unknown";
  if (Math.abs(delta) < RATE_EPSILON) return "same";
  return delta > 0 ? "worse" : "better";
}

/** `ratio` is B ÷ A of the mean step time. */
export function timeTone(ratio: number | null): DeltaTone {
  if (ratio === null || !Number.isFinite(ratio)) return "unknown";
  if (Math.abs(ratio - 1) < TIME_EPSILON) return "same";
  return ratio > 1 ? "worse" : "better";
}

/** Rows a comparison page shows at most: a 60,000-cell comparison was 122 MB of HTML (#29.6). */
export const COMPARE_ROWS = 500;

/**
 * The `limit` cells that changed most (failure rate first, then step time), in A's order; the
 * rest are counted, not shown.
 */
export function mostChanged(cells: CellDelta[], limit = COMPARE_ROWS): CellDelta[] {
  if (cells.length <= limit) return cells;
  const weight = (c: CellDelta) => [Math.abs(c.failureRateDelta ?? 0), Math.abs((c.meanStepTimeRatio ?? 1) - 1)] as const;
  const order = cells.map((c, i) => ({ i, w: weight(c) }));
  order.sort((x, y) => y.w[0] - x.w[0] || y.w[1] - x.w[1] || x.i - y.i);
  return order
    .slice(0, limit)
    .sort((x, y) => x.i - y.i)
    .map(({ i }) => cells[i]!);
}

function side(c: MatrixCell): CellSide {
  return {
    failure_rate: c.failure_rate,
    failed_count: c.failed_count,
    trials: c.trials,
    mean_step_time_ms: c.mean_step_time_ms,
    step_time_ratio: c.step_time_ratio,
    error: c.error,
  };
}

const diff = (a: number | null, b: number | null) => (a === null || b === null ? null : b - a);

function byName(m: Matrix, dupes: Set<string>): Map<string, MatrixCell> {
  const map = new Map<string, MatrixCell>();
  for (const c of m.cells) {
    const name = cellLabel(c);
    if (map.has(name)) dupes.add(name);
    else map.set(name, c);
  }
  return map;
}

/** Pairs the cells of two matrices by name (in A's order, then B's) and computes the deltas. */
export function compareMatrices(a: Matrix, b: Matrix): MatrixComparison {
  const dupes = new Set<string>();
  const cellsA = byName(a, dupes);
  const cellsB = byName(b, dupes);
  const cells: CellDelta[] = [];
  const onlyInA: string[] = [];
  for (const [name, ca] of cellsA) {
    const cb = cellsB.get(name);
    if (!cb) {
      onlyInA.push(name);
      continue;
    }
    const sa = side(ca);
    const sb = side(cb);
    cells.push({
      name,
      a: sa,
      b: sb,
      failureRateDelta: diff(sa.failure_rate, sb.failure_rate),
      meanStepTimeDeltaMs: diff(sa.mean_step_time_ms, sb.mean_step_time_ms),
      meanStepTimeRatio:
        sa.mean_step_time_ms !== null && sb.mean_step_time_ms !== null && sa.mean_step_time_ms > 0 ? sb.mean_step_time_ms / sa.mean_step_time_ms : null,
      stepTimeRatioDelta: diff(sa.step_time_ratio, sb.step_time_ratio),
    });
  }
  const onlyInB = [...cellsB.keys()].filter((n) => !cellsA.has(n));
  return { cells, onlyInA, onlyInB, duplicateNames: [...dupes] };
}

export interface EnvDiff {
  changed: { path: string; a: unknown; b: unknown }[];
  added: { path: string; value: unknown }[];
  removed: { path: string; value: unknown }[];
}

function keyPath(at: string, key: string | number): string {
  return typeof key === "number" ? `${at}[${key}]` : at ? `${at}.${key}` : key;
}

/**
 * Structural diff of two environment objects, with dotted paths (`rocm.version`,
 * `gpu_arch.gfx_targets[0]`). Arrays are compared by index; a value that changes kind
 * (object ↔ scalar) is one change at that path.
 */
export function diffEnv(a: unknown, b: unknown): EnvDiff {
  const out: EnvDiff = { changed: [], added: [], removed: [] };
  const walk = (x: unknown, y: unknown, at: string) => {
    if (isRecord(x) && isRecord(y)) {
      for (const k of Object.keys(x)) {
        if (Object.hasOwn(y, k)) walk(x[k], y[k], keyPath(at, k));
        else out.removed.push({ path: keyPath(at, k), value: x[k] });
      }
      for (const k of Object.keys(y)) if (!Object.hasOwn(x, k)) out.added.push({ path: keyPath(at, k), value: y[k] });
      return;
    }
    if (Array.isArray(x) && Array.isArray(y)) {
      const n = Math.max(x.length, y.length);
      for (let i = 0; i < n; i++) {
        if (i >= y.length) out.removed.push({ path: keyPath(at, i), value: x[i] });
        else if (i >= x.length) out.added.push({ path: keyPath(at, i), value: y[i] });
        else walk(x[i], y[i], keyPath(at, i));
      }
      return;
    }
    if (x !== y) out.changed.push({ path: at, a: x, b: y });
  };
  walk(a, b, "");
  return out;
}
