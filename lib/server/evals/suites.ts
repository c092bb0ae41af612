import "server-only";
import fs from "node:fs";
import path from "node:path";
import { parseSuite } from "@/lib/evals/suite";
import { walkSync } from "@/lib/sandbox/walk";
import { toolroomPackage } from "@/lib/server/tools-page/package-info";
import { sourceRootOf } from "@/lib/settings";
import type { Settings } from "@/lib/settings/schema";

export const SUITE_SUFFIX = ".eval.yaml";
/** The walk of the source root for suites stops after this many entries: a huge tree must not stall the page. */
const MAX_ENTRIES = 20_000;

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
  /** Why it cannot run (validation), when it cannot. */
  error: string | null;
}

function describe(key: string, label: string, file: string): SuiteListing {
  try {
    const suite = parseSuite(fs.readFileSync(file, "utf8"), label);
    return {
      key,
      label,
      file,
      name: suite.name,
      cases: suite.cases.length,
      models: suite.matrix.models,
      modes: suite.matrix.modes,
      trials: suite.matrix.trials,
      error: null,
    };
  } catch (error) {
    return { key, label, file, name: null, cases: null, models: [], modes: [], trials: null, error: (error as Error).message };
  }
}

/** Suites in the source root (`*.eval.yaml`, through the sandbox's walk: .aiignore, no symlinks) and Toolroom's examples/evals. */
export function listSuites(settings: Settings): SuiteListing[] {
  const found = new Map<string, SuiteListing>();
  const root = fs.realpathSync(sourceRootOf(settings));
  let seen = 0;
  for (const entry of walkSync(root, ".")) {
    if (++seen > MAX_ENTRIES) break;
    if (entry.name.endsWith(SUITE_SUFFIX)) found.set(entry.abs, describe(`source:${entry.rel}`, entry.rel, entry.abs));
  }
  const examples = path.join(toolroomPackage().dir, "examples/evals");
  const names = fs.existsSync(examples)
    ? fs
        .readdirSync(examples)
        .filter((n) => n.endsWith(SUITE_SUFFIX))
        .sort()
    : [];
  for (const name of names) {
    const file = fs.realpathSync(path.join(examples, name));
    if (!found.has(file)) found.set(file, describe(`examples:${name}`, `examples/evals/${name}`, file));
  }
  return [...found.values()];
}
