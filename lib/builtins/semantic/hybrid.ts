/** Rank fusion and diversity for hybrid search: pure functions over ids and unit vectors. */

/** Reciprocal rank fusion (Cormack et al.): each list adds 1 / (k + rank); k = 60 as in the paper. */
export function reciprocalRankFusion<T>(lists: readonly (readonly T[])[], k = 60): { id: T; score: number }[] {
  const scores = new Map<T, number>();
  for (const list of lists) list.forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + rank + 1)));
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}

export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) sum += a[i]! * b[i]!;
  return sum;
}

/**
 * Maximal marginal relevance: picks `k` items, each time the one with the best
 * λ·relevance − (1−λ)·(highest similarity to an item already picked), so near-duplicate chunks
 * (a file and its copy, overlapping windows) do not fill the results. Items without a vector are
 * similar to nothing.
 */
export function maximalMarginalRelevance<T extends { score: number; vector?: Float32Array }>(items: readonly T[], k: number, lambda = 0.7): T[] {
  const max = items.reduce((m, item) => Math.max(m, item.score), 0) || 1;
  const left = [...items];
  const picked: T[] = [];
  while (picked.length < k && left.length > 0) {
    let best = 0;
    let bestValue = -Infinity;
    left.forEach((item, i) => {
      let similarity = 0;
      if (item.vector) for (const p of picked) if (p.vector) similarity = Math.max(similarity, dot(item.vector, p.vector));
      const value = lambda * (item.score / max) - (1 - lambda) * similarity;
      if (value > bestValue) {
        bestValue = value;
        best = i;
      }
    });
    picked.push(left.splice(best, 1)[0]!);
  }
  return picked;
}

/** The `k` rows of a packed matrix (unit rows of `dim` floats) nearest to a unit query, by dot product; rows marked in `dead` are skipped. */
export function nearestRows(
  matrix: Float32Array,
  dim: number,
  rows: number,
  query: Float32Array,
  k: number,
  dead?: Uint8Array,
): { row: number; score: number }[] {
  const top: { row: number; score: number }[] = [];
  let floor = -Infinity;
  for (let r = 0; r < rows; r++) {
    if (dead?.[r]) continue;
    let sum = 0;
    const base = r * dim;
    for (let i = 0; i < dim; i++) sum += matrix[base + i]! * query[i]!;
    if (top.length >= k && sum <= floor) continue;
    top.push({ row: r, score: sum });
    if (top.length > k * 4) {
      top.sort((a, b) => b.score - a.score);
      top.length = k;
      floor = top[k - 1]!.score;
    }
  }
  return top.sort((a, b) => b.score - a.score).slice(0, k);
}
