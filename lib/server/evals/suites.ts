import "server-only";
import fs from "node:fs";
import path from "node:path";
import { assertJudgesUsable } from "@/lib/evals/judge";
import { MODE_CHOICES } from "@/lib/evals/mode-choices";
import { parseSuite } from "@/lib/evals/suite";
import { sweepSize, type SweepSize } from "@/lib/evals/sweep";
import { isTrustedSuite, suiteAsks, trustLine, type ConfirmingTool, type SuiteAsks } from "@/lib/evals/trust";
import { walkSync } from "@/lib/sandbox/walk";
import { toolroomPackage } from "@/lib/server/tools-page/package-info";
import { sourceRootOf } from "@/lib/settings";
import { pricingOf } from "@/lib/settings/pricing";
import type { Suite } from "@/lib/evals/suite-schema";
import type { Settings } from "@/lib/settings/schema";

export const SUITE_SUFFIX = ".eval.yaml";
/** The walk of the source root for suites stops after this many entries: a huge tree must not stall the page. */
const MAX_ENTRIES = 20_000;
/**
 * Suites are parsed on the request thread (YAML takes seconds a megabyte on a busy machine): a
 * source-root suite above this is listed unread, and one listing reads at most MAX_LISTING_BYTES.
 * `toolroom eval FILE` runs a bigger suite of your own.
 */
export const MAX_SUITE_BYTES = 1024 * 1024;
export const MAX_LISTING_BYTES = 4 * 1024 * 1024;

/** Parsed suites by file, kept while the file's size and mtime stay the same: a poll of /evals parses nothing new. */
const parsed = new Map<string, { stamp: string; suite?: Suite; error?: string }>();

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

export interface SuiteListing {
  /** What the page sends back to start it: `source:<rel>` or `examples:<name>`; never a free path. */
  key: string;
  /** Shown: relative to the source root, or `examples/evals/<name>`. */
  label: string;
  file: string;
  name: string | null;
  cases: number | null;
  /** The suite's matrix as written (the page's defaults). */
  models: string[];
  modes: string[];
  trials: number | null;
  /** What a run would be under each of the page's mode choices (by id), as the server expands it; and the settings' bound on trials. */
  sizes: Record<string, SweepSize>;
  maxTrials: number;
  /** What it asks for beyond reading and judging (plugins, tool settings, approvals), when valid. */
  asks: SuiteAsks | null;
  /** In examples/evals or matched by `evals.trusted`: what it asks for is granted. */
  trusted: boolean;
  /** The settings line that would trust it. */
  trustLine: string;
  /** Why it cannot run (validation), when it cannot. */
  error: string | null;
  /** Each model's `llms.<name>.pricing`, null when unpriced: the page estimates a run's cost before it starts. */
  pricing: Record<string, { inputPerMTok: number; outputPerMTok: number } | null>;
}

interface Describe {
  settings: Settings;
  root: string;
  examples: string;
  confirming: ConfirmingTool;
  /** Bytes this listing has parsed so far (cached suites cost nothing). */
  budget: { read: number };
}

/** The suite in `file`, parsed once per version of the file; a problem (too big, invalid) is thrown as its message. */
function readSuite(file: string, label: string, d: Describe): Suite {
  const stat = fs.statSync(file);
  if (stat.size > MAX_SUITE_BYTES)
    throw new Error(`${label} is ${megabytes(stat.size)}, above the 1 MB a suite listed from the source root may be; run it with toolroom eval ${label}`);
  const stamp = `${stat.size}:${stat.mtimeMs}`;
  let entry = parsed.get(file);
  if (entry?.stamp !== stamp) {
    if (d.budget.read + stat.size > MAX_LISTING_BYTES)
      throw new Error(`${label}: not read: the suites listed before it in the source root already hold ${Math.round(d.budget.read / (1024 * 1024))} MB`);
    d.budget.read += stat.size;
    try {
      entry = { stamp, suite: parseSuite(fs.readFileSync(file, "utf8"), label) };
    } catch (error) {
      entry = { stamp, error: (error as Error).message };
    }
    parsed.set(file, entry);
  }
  if (entry.error !== undefined) throw new Error(entry.error);
  return entry.suite!;
}

function describe(key: string, label: string, file: string, d: Describe): SuiteListing {
  const trust = { trusted: isTrustedSuite(file, d.settings, { sourceRoot: d.root, examplesDir: d.examples }), trustLine: trustLine(label) };
  try {
    const suite = readSuite(file, label, d);
    assertJudgesUsable(suite, d.settings, label);
    return {
      key,
      label,
      file,
      name: suite.name,
      cases: suite.cases.length,
      models: suite.matrix.models,
      modes: suite.matrix.modes,
      trials: suite.matrix.trials,
      sizes: Object.fromEntries(MODE_CHOICES.map((c) => [c.id, sweepSize(suite, d.settings, c)])),
      maxTrials: d.settings.evals.maxTrials,
      asks: suiteAsks(suite, d.confirming),
      ...trust,
      error: null,
      pricing: Object.fromEntries(suite.matrix.models.map((m) => [m, pricingOf(d.settings, m) ?? null])),
    };
  } catch (error) {
    return {
      key,
      label,
      file,
      name: null,
      cases: null,
      models: [],
      modes: [],
      trials: null,
      sizes: {},
      maxTrials: d.settings.evals.maxTrials,
      asks: null,
      ...trust,
      error: (error as Error).message,
      pricing: {},
    };
  }
}

/**
 * Suites in the source root (`*.eval.yaml`, through the sandbox's walk: .aiignore, no symlinks) and
 * Toolroom's examples/evals, each with what it asks for; `confirming` says which tools ask a person
 * (a mock in place of one approves its calls).
 */
export function listSuites(settings: Settings, confirming: ConfirmingTool): SuiteListing[] {
  const found = new Map<string, SuiteListing>();
  const root = fs.realpathSync(sourceRootOf(settings));
  const examples = path.join(toolroomPackage().dir, "examples/evals");
  const d: Describe = { settings, root, examples: fs.existsSync(examples) ? fs.realpathSync(examples) : examples, confirming, budget: { read: 0 } };
  let seen = 0;
  for (const entry of walkSync(root, ".")) {
    if (++seen > MAX_ENTRIES) break;
    if (entry.name.endsWith(SUITE_SUFFIX)) found.set(entry.abs, describe(`source:${entry.rel}`, entry.rel, entry.abs, d));
  }
  const names = fs.existsSync(examples)
    ? fs
        .readdirSync(examples)
        .filter((n) => n.endsWith(SUITE_SUFFIX))
        .sort()
    : [];
  for (const name of names) {
    const file = fs.realpathSync(path.join(examples, name));
    if (!found.has(file)) found.set(file, describe(`examples:${name}`, `examples/evals/${name}`, file, d));
  }
  // Suites gone from the tree leave the cache with it.
  for (const file of parsed.keys()) if (!found.has(file)) parsed.delete(file);
  return [...found.values()];
}
