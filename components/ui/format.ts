/** A number that was not recorded reads "—", never 0. */
export const MISSING = "—";

/** Milliseconds as the UI shows a duration: "840 ms", "2.4 s", "1 min 12 s". */
export function formatMs(ms: number | undefined): string {
  if (ms === undefined) return MISSING;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatCount(n: number | undefined): string {
  return n === undefined ? MISSING : n.toLocaleString("en-US");
}

/** Token counts the provider sent none of (a server that ignores include_usage): "not reported", never 0. */
export function formatTokens(input: number | undefined, output: number | undefined): string {
  if (input === undefined && output === undefined) return "not reported";
  return `${formatCount(input)} / ${formatCount(output)}`;
}
