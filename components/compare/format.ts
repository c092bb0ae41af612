/** A number the trace did not record reads "—", never 0. */
export const MISSING = "—";

export function formatMs(ms: number | undefined): string {
  if (ms === undefined) return MISSING;
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export function formatCount(n: number | undefined): string {
  return n === undefined ? MISSING : n.toLocaleString("en-US");
}

/** Token counts the provider sent none of (a server that ignores include_usage): "not reported", never 0. */
export function formatTokens(input: number | undefined, output: number | undefined): string {
  if (input === undefined && output === undefined) return "not reported";
  return `${formatCount(input)} / ${formatCount(output)}`;
}
