import path from "node:path";
import type { Settings } from "@/lib/settings/schema";
import type { Suite } from "./suite-schema";

/**
 * What a suite asks for beyond reading and judging: code it loads, tools it turns on or
 * reconfigures, calls it approves without a person. A suite from the source root may have been
 * written by a stranger, so none of this is granted unless the person trusts the file.
 */
export interface SuiteAsks {
  /** Plugin folders it loads, as written in the suite. */
  plugins: string[];
  /** Tool sections it sets, with the keys (`run_terminal_command: enabled, allowedCommands`). */
  tools: { name: string; keys: string[] }[];
  /** Calls it approves: `case <name>: confirm approve`, `case <name>: mocks <tool> (confirming)`. */
  approves: string[];
  /** Trials per case and cell, as written. */
  trials: number;
}

/** `tool` confirms (asks a person before it runs): a mock in its place would answer for that call. */
export type ConfirmingTool = (tool: string) => boolean;

export function suiteAsks(suite: Suite, confirming: ConfirmingTool): SuiteAsks {
  const approves: string[] = [];
  for (const c of suite.cases) {
    if (c.confirm === "approve") approves.push(`case ${c.name}: confirm approve`);
    for (const tool of Object.keys(c.mocks ?? {})) if (confirming(tool)) approves.push(`case ${c.name}: mocks ${tool} (a confirming tool)`);
  }
  return {
    plugins: suite.settings?.plugins?.paths ?? [],
    tools: Object.entries(suite.settings?.tools ?? {}).map(([name, section]) => ({ name, keys: Object.keys(section) })),
    approves,
    trials: suite.matrix.trials,
  };
}

/** Whether running the suite needs it trusted: it loads code, changes tools or approves a call. */
export function asksForTrust(asks: SuiteAsks): boolean {
  return asks.plugins.length > 0 || asks.tools.length > 0 || asks.approves.length > 0;
}

/** What an untrusted suite asks for, one item a line, for the refusal. */
export function describeAsks(asks: SuiteAsks): string[] {
  return [
    ...asks.plugins.map((p) => `loads the plugin ${p}`),
    ...asks.tools.map((t) => `configures the tool ${t.name} (${t.keys.join(", ") || "its section"})`),
    ...asks.approves.map((a) => `approves without a person: ${a}`),
  ];
}

export interface TrustPlaces {
  /** The source root, real path: `evals.trusted` entries are relative to it. */
  sourceRoot: string;
  /** Toolroom's own examples/evals, real path. */
  examplesDir: string;
}

const inside = (dir: string, file: string) => {
  const rel = path.relative(dir, file);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
};

/**
 * A suite file is trusted when it is one of Toolroom's examples or matches `evals.trusted` (a path
 * or glob, relative to the source root or absolute). `file` is a real path (symlinks resolved), so
 * a link inside a trusted folder does not carry the trust to a file elsewhere.
 */
export function isTrustedSuite(file: string, settings: Settings, places: TrustPlaces): boolean {
  if (inside(places.examplesDir, file)) return true;
  const rel = path.relative(places.sourceRoot, file).split(path.sep).join("/");
  return settings.evals.trusted.some((entry) => {
    const pattern = entry.replace(/\\/g, "/").replace(/^\.\//, "");
    if (path.isAbsolute(pattern)) return path.resolve(pattern) === file || path.matchesGlob(file, pattern);
    return !rel.startsWith("../") && (rel === pattern || path.matchesGlob(rel, pattern));
  });
}

/** The settings line that would trust this suite (its path relative to the source root). */
export function trustLine(rel: string): string {
  return `evals: { trusted: [${JSON.stringify(rel)}] }`;
}

export class SuiteTrustError extends Error {}

/** Refuses a run of an untrusted suite that asks for anything beyond reading and judging. */
export function assertRunnable(asks: SuiteAsks, trusted: boolean, label: string, rel: string): void {
  if (trusted || !asksForTrust(asks)) return;
  throw new SuiteTrustError(
    `The eval suite ${label} is not trusted, and it ${describeAsks(asks).join("; ")}. ` +
      `Suites from the source root cannot load code, change tools or approve calls unless you trust them: ` +
      `add this to your settings (merging with any list already there): ${trustLine(rel)}`,
  );
}
