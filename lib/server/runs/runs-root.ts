import "server-only";
import path from "node:path";
import { isAllowedRoot } from "@/lib/artifacts/roots";
import { exampleRunsDir as bundledExamples, rootFolderProblem } from "@/lib/artifacts/runs-root-help";
import { toolroomPackage } from "@/lib/server/tools-page/package-info";
import { getSettings, runsRootOf } from "@/lib/settings";

export interface RunsRoot {
  /** Absolute. */
  root: string;
  /** The `?root=` value when one was given (kept as typed, for links), else null. */
  override: string | null;
  /** Set when an override is refused or not a readable folder; the page shows it instead of a list. */
  error: string | null;
  /** 403 for a root outside the allowed ones, 400 for one that cannot be read; null without an error. */
  status: 400 | 403 | null;
}

/** First value of a search parameter (Next gives arrays for repeated keys). */
export function param(v: string | string[] | undefined | null): string | null {
  const first = Array.isArray(v) ? v[0] : v;
  return first === undefined || first === null || first.trim() === "" ? null : first;
}

/** The example runs shipped with Toolroom (absolute), or null when this install has none. */
export function exampleRunsDir(): string | null {
  return bundledExamples(toolroomPackage().dir);
}

/**
 * The runs root: `?root=` when given (relative to the server's working folder), else settings'
 * `runsRoot`. Over HTTP an override may only name `runsRoot`, a `runs.extraRoots` folder, the
 * bundled example runs, or a folder inside one (any web page can make a browser send this request); it must be an existing
 * folder. The default may be missing, which the list reports as an empty state explaining `runsRoot`.
 */
export function resolveRunsRoot(override: string | null): RunsRoot {
  const settings = getSettings();
  if (override === null) return { root: runsRootOf(settings), override: null, error: null, status: null };
  if (override.includes("\0")) return { root: override, override, error: "The runs root override contains a NUL byte.", status: 400 };
  const root = path.resolve(/* turbopackIgnore: true */ process.cwd(), override);
  const examples = exampleRunsDir();
  const allowed = [
    runsRootOf(settings),
    ...settings.runs.extraRoots.map((r) => path.resolve(/* turbopackIgnore: true */ process.cwd(), r)),
    ...(examples ? [examples] : []),
  ];
  if (!isAllowedRoot(root, allowed)) {
    return {
      root,
      override,
      status: 403,
      error: `The runs root override ${root} is not allowed: over HTTP, ?root= may name only runsRoot or a folder listed in the runs.extraRoots setting (or one inside them). To browse it, add it to runs.extraRoots in toolroom.yaml (or set TOOLROOM_RUNS__EXTRAROOTS), or use \`toolroom runs --root\`.`,
    };
  }
  const problem = rootFolderProblem(root, "The runs root override");
  if (problem) return { root, override, error: problem, status: 400 };
  return { root, override, error: null, status: null };
}
