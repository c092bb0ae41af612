/**
 * Pairs expected calls with actual calls. `fits(e, a)` says whether actual call `a` satisfies
 * expected call `e`. Order-free, this is a maximum bipartite matching (Kuhn's augmenting paths):
 * first-fit would let one actual call take the only partner another expected call had, so the
 * right calls in another order could fail. Ordered, the pairing must also increase in both
 * indexes, and taking the earliest fitting call for each expected call in turn is optimal.
 * Returns, for each expected call, the index of its actual call or -1.
 */
export function assignCalls(expected: number, actual: number, fits: (e: number, a: number) => boolean, ordered: boolean): number[] {
  const pairOf = new Array<number>(expected).fill(-1);
  if (ordered) {
    let from = 0;
    for (let e = 0; e < expected; e++) {
      for (let a = from; a < actual; a++) {
        if (fits(e, a)) {
          pairOf[e] = a;
          from = a + 1;
          break;
        }
      }
    }
    return pairOf;
  }
  const edges = Array.from({ length: expected }, (_, e) => Array.from({ length: actual }, (_, a) => a).filter((a) => fits(e, a)));
  const ownerOf = new Array<number>(actual).fill(-1);
  const augment = (e: number, visited: boolean[]): boolean => {
    for (const a of edges[e]!) {
      if (visited[a]) continue;
      visited[a] = true;
      if (ownerOf[a] === -1 || augment(ownerOf[a]!, visited)) {
        ownerOf[a] = e;
        pairOf[e] = a;
        return true;
      }
    }
    return false;
  };
  for (let e = 0; e < expected; e++) augment(e, new Array<boolean>(actual).fill(false));
  return pairOf;
}
