import "server-only";
import path from "node:path";
import { generateId } from "ai";
import { evaluate } from "@/lib/evals/evaluate";
import { summarize, type CellSummary } from "@/lib/evals/results";
import { matrixCells, type MatrixChoice } from "@/lib/evals/runner";
import { loadSuite } from "@/lib/evals/suite";
import { getRegistry } from "@/lib/server/runtime/registry";
import { HttpError } from "@/lib/server/http/http-error";
import { getSettings, runsRootOf } from "@/lib/settings";
import { listSuites } from "./suites";
import { chatTrialStore } from "./trial-store";

/** Evals running at once in this server process; more are refused (409) rather than queued unseen. */
export const MAX_RUNNING = 2;
/** Finished evals kept for the page; older ones are in /runs anyway. */
const KEEP_FINISHED = 20;

export interface EvalRunStatus {
  id: string;
  suite: string;
  label: string;
  state: "running" | "done" | "failed";
  startedAt: string;
  finishedAt: string | null;
  done: number;
  total: number;
  passed: number;
  failed: number;
  errors: number;
  /** The result folder relative to runsRoot, once written. */
  runRel: string | null;
  cells: CellSummary[];
  error: string | null;
}

const store = globalThis as unknown as { __toolroomEvals?: Map<string, EvalRunStatus> };
const runs = (): Map<string, EvalRunStatus> => (store.__toolroomEvals ??= new Map<string, EvalRunStatus>());

export function evalRuns(): EvalRunStatus[] {
  return [...runs().values()].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

function prune(): void {
  const finished = evalRuns().filter((r) => r.state !== "running");
  for (const old of finished.slice(KEEP_FINISHED)) runs().delete(old.id);
}

/** Starts a listed suite in the background of the server process; the page polls its status. */
export function startEval(key: string, choice: MatrixChoice): EvalRunStatus {
  const settings = getSettings();
  const listing = listSuites(settings).find((s) => s.key === key);
  if (!listing) throw new HttpError(404, `No eval suite "${key}" in the source root or examples/evals.`, "unknown_suite");
  if (listing.error) throw new HttpError(400, listing.error, "invalid_suite");
  if (evalRuns().filter((r) => r.state === "running").length >= MAX_RUNNING)
    throw new HttpError(409, `${MAX_RUNNING} evals are running already; wait for one to finish.`, "too_many_evals");
  const loaded = loadSuite(listing.file);
  for (const model of choice.models ?? loaded.suite.matrix.models)
    if (!settings.llms[model]) throw new HttpError(400, `No model named "${model}" in settings llms.`, "unknown_model");
  const cells = matrixCells(loaded.suite, settings, choice);
  const status: EvalRunStatus = {
    id: generateId(),
    suite: loaded.suite.name,
    label: listing.label,
    state: "running",
    startedAt: new Date().toISOString(),
    finishedAt: null,
    done: 0,
    total: cells.length * loaded.suite.cases.length * (choice.trials ?? loaded.suite.matrix.trials),
    passed: 0,
    failed: 0,
    errors: 0,
    runRel: null,
    cells: [],
    error: null,
  };
  runs().set(status.id, status);
  prune();
  void (async () => {
    try {
      const { run, dir } = await evaluate({
        loaded,
        settings,
        registry: await getRegistry(),
        ...choice,
        store: chatTrialStore,
        onTrial: (record, done, total) => {
          status.done = done;
          status.total = total;
          if (record.verdict === "pass") status.passed++;
          else if (record.verdict === "fail") status.failed++;
          else status.errors++;
        },
      });
      status.cells = summarize(run).cells;
      status.runRel = path.relative(runsRootOf(settings), dir).split(path.sep).join("/");
      status.state = "done";
    } catch (error) {
      console.error("toolroom: eval failed:", error);
      status.state = "failed";
      status.error = error instanceof Error ? error.message.split("\n")[0]! : String(error);
    } finally {
      status.finishedAt = new Date().toISOString();
    }
  })();
  return status;
}
