import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { runChanges, type CallChange } from "@/lib/evals/collection-diff";
import { prepareCall, resultOf, scopeOf, summarize, varsOf, type CallResult } from "@/lib/evals/collection-run";
import { toolProblems } from "@/lib/evals/collection";
import { VAR_NAME, type VarValue } from "@/lib/evals/collection-schema";
import {
  cancelCollectionRun,
  createCollectionRun,
  getCollectionRun,
  listCollectionRuns,
  storeCollectionStep,
  type CollectionRunRow,
} from "@/lib/db/collection-queries";
import { approvalReasonSchema } from "@/lib/server/approvals/approval-reason";
import { ruleDecider } from "@/lib/server/approvals/rule-book";
import { HttpError } from "@/lib/server/http/http-error";
import { getRegistry } from "@/lib/server/runtime/registry";
import { runTryIt, type TryItResponse } from "@/lib/server/try-it/try-it";
import { tryItApprovals } from "@/lib/server/try-it/try-it-approvals";
import { getSettings } from "@/lib/settings";
import { attemptOf } from "./collection-calls";
import { collectionByKey, listCollections, type CollectionListing } from "./collections";

/** A run as the page shows it: its calls so far, and how each fared against the run before. */
export interface CollectionRunView {
  id: string;
  collectionKey: string;
  collection: string;
  vars: Record<string, VarValue>;
  state: string;
  startedAt: string;
  finishedAt: string | null;
  total: number;
  done: number;
  passed: number;
  failed: number;
  results: CallResult[];
  /** By call name, against the last finished run before this one (none: every call is new). */
  changes: Record<string, CallChange>;
}

export type ApprovalNeeded = Omit<Extract<TryItResponse, { status: "approval-required" }>, "status">;

/** A step's answer: the run, and when the next call waits for a person, what to ask them. */
export interface StepReply {
  run: CollectionRunView;
  approval: ApprovalNeeded | null;
}

const HISTORY = 10;

function view(row: CollectionRunRow, before: CollectionRunRow | undefined): CollectionRunView {
  const results = JSON.parse(row.results) as CallResult[];
  return {
    id: row.id,
    collectionKey: row.collectionKey,
    collection: row.collection,
    vars: JSON.parse(row.vars) as Record<string, VarValue>,
    state: row.state,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    total: row.total,
    done: row.done,
    passed: row.passed,
    failed: row.failed,
    results,
    changes: runChanges(results, before ? (JSON.parse(before.results) as CallResult[]) : undefined),
  };
}

/** The run with its changes against the last finished run of its collection that started before it. */
async function viewOf(row: CollectionRunRow): Promise<CollectionRunView> {
  const runs = await listCollectionRuns(row.collectionKey, HISTORY + 1);
  return view(
    row,
    runs.find((r) => r.state === "done" && r.startedAt < row.startedAt),
  );
}

export interface CollectionOverview extends CollectionListing {
  /** The latest runs, newest first: id, when, how it ended. */
  history: { id: string; startedAt: string; state: string; passed: number; failed: number; total: number }[];
  last: CollectionRunView | null;
}

/** Every collection with its calls, its latest run (against the one before) and its history. */
export async function collectionsOverview(): Promise<{ collections: CollectionOverview[] }> {
  const collections = await Promise.all(
    listCollections(getSettings()).map(async (listing): Promise<CollectionOverview> => {
      const runs = await listCollectionRuns(listing.key, HISTORY + 1);
      const latest = runs[0];
      return {
        ...listing,
        history: runs.slice(0, HISTORY).map((r) => ({
          id: r.id,
          startedAt: r.startedAt.toISOString(),
          state: r.state,
          passed: r.passed,
          failed: r.failed,
          total: r.total,
        })),
        last: latest
          ? view(
              latest,
              runs.slice(1).find((r) => r.state === "done"),
            )
          : null,
      };
    }),
  );
  return { collections };
}

export const startRunSchema = z.strictObject({
  key: z.string().min(1).max(1000),
  vars: z.record(z.string().regex(VAR_NAME), z.string().max(10_000)).default({}),
});

/** Starts a run: the file loads (with these vars) and every tool it calls exists, or nothing is stored. */
export async function startCollectionRun(body: z.output<typeof startRunSchema>): Promise<CollectionRunView> {
  const settings = getSettings();
  const loaded = collectionByKey(settings, body.key, Object.keys(body.vars));
  const registry = await getRegistry();
  const missing = toolProblems(loaded, loaded.label, (tool) => {
    const registered = registry.get(tool);
    if (!registered) return `no tool named ${tool} is registered`;
    return registered.enabled ? undefined : `${tool} is disabled in settings (tools.${tool}.enabled)`;
  });
  if (missing) throw new HttpError(400, missing, "invalid_collection");
  const row = {
    id: randomUUID(),
    collectionKey: body.key,
    collection: loaded.collection.name,
    vars: JSON.stringify(varsOf(loaded.collection, body.vars)),
    state: "running",
    startedAt: new Date(),
    total: loaded.collection.calls.length,
  };
  await createCollectionRun(row);
  return viewOf({ ...row, finishedAt: null, done: 0, passed: 0, failed: 0, results: "[]" });
}

export const stepSchema = z.strictObject({
  /** With a decision: the approval the last step asked for. */
  approvalId: z.string().max(200).optional(),
  decision: z.enum(["approve", "deny"]).optional(),
  reason: approvalReasonSchema.optional(),
  editedInput: z.unknown().optional(),
});

async function runningRow(id: string): Promise<CollectionRunRow> {
  const row = await getCollectionRun(id);
  if (!row) throw new HttpError(404, `No collection run ${id}.`, "unknown_run");
  if (row.state !== "running") throw new HttpError(409, `The run is ${row.state}: start a new one.`, "run_ended");
  return row;
}

/**
 * Runs the run's next call through try-it's service: the approval rules first, then the tool's own
 * confirmation. A call that needs a person is answered `approval` and not stored; the page shows
 * the approval dialog and sends the decision with the next step, which try-it checks (that
 * approval, for this tool, with this exact input, once).
 */
export async function stepCollectionRun(id: string, body: z.output<typeof stepSchema>): Promise<StepReply> {
  const row = await runningRow(id);
  const settings = getSettings();
  const vars = JSON.parse(row.vars) as Record<string, VarValue>;
  const loaded = collectionByKey(settings, row.collectionKey, Object.keys(vars));
  if (loaded.collection.calls.length !== row.total)
    throw new HttpError(409, `${loaded.label} changed since the run started: start a new one.`, "collection_changed");
  const done = JSON.parse(row.results) as CallResult[];
  const call = loaded.collection.calls[row.done]!;
  const prepared = prepareCall(call, scopeOf(vars, done));
  let result: CallResult;
  if (!prepared.ok) result = prepared.result;
  else {
    const deps = { registry: await getRegistry(), settings, approvals: tryItApprovals(), rules: ruleDecider(settings, undefined) };
    const { httpStatus, body: reply } = await runTryIt(
      call.tool,
      {
        input: prepared.input,
        ...(body.decision ? { approvalId: body.approvalId, decision: body.decision } : {}),
        ...(body.reason ? { reason: body.reason } : {}),
        ...(body.editedInput !== undefined ? { editedInput: body.editedInput } : {}),
      },
      deps,
    );
    if (reply.status === "approval-required") {
      const { status: _status, ...approval } = reply;
      return { run: await viewOf(row), approval };
    }
    // A try-it refusal of the decision itself (a replayed, unknown or someone else's approval id)
    // decides nothing: the page asks again.
    if (reply.status === "error" && (reply.code === "approval_refused" || reply.code === "unknown_approval"))
      throw new HttpError(httpStatus, reply.error, reply.code);
    const attempt = attemptOf(reply, body.decision ? "user" : "unsupervised")!;
    result = resultOf(call, body.editedInput ?? prepared.input, prepared.expect, attempt);
  }
  const results = [...done, result];
  const summary = summarize(row.collection, vars, results);
  const finished = results.length === row.total;
  const next = {
    done: results.length,
    passed: summary.passed,
    failed: summary.failed,
    results: JSON.stringify(results),
    state: finished ? "done" : "running",
    finishedAt: finished ? new Date() : null,
  };
  if (!(await storeCollectionStep(id, row.done, next))) throw new HttpError(409, "Another answer to this step was stored first.", "step_taken");
  return { run: await viewOf({ ...row, ...next }), approval: null };
}

/** The page's Stop: the run ends where it is (its finished calls stay). */
export async function stopCollectionRun(id: string): Promise<CollectionRunView> {
  await runningRow(id);
  await cancelCollectionRun(id, new Date());
  return viewOf((await getCollectionRun(id))!);
}
