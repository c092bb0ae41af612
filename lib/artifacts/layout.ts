/** What a run's path says about it, before any file is read. */
export type RunLayout = "triage" | "probe" | "dashboard" | "other";

export interface PathFacts {
  layout: RunLayout;
  ticket: string | null;
  workload: string | null;
  /** As written in the path (`2026-04-28T14-12-03`, `2026-10-09T141446`). */
  timestamp: string | null;
  /** Dashboard or survey case (`consan-clean`, `waitcheck-gemm`). */
  case: string | null;
  caseClass: "guardrail" | "survey" | null;
  /** Dashboard run id (`2026-10-09T141446-37929907291`). */
  dashboardRun: string | null;
}

/** Files whose presence makes a folder a run. */
export const RUN_MARKERS = ["matrix.json", "env.json", "host_env.json", "meta.json", "sanitizer_report.json"] as const;

/** Files worth naming in a run listing, besides the markers. */
export const KNOWN_ARTIFACTS = new Set<string>([
  ...RUN_MARKERS,
  "matrix.md",
  "agent_log.jsonl",
  "agent_report.md",
  "recipe.resolved.yaml",
  "data.json",
  "cases.json",
]);

/** Triage run folder: `2026-04-28T14-12-03`, with `-N` when two runs started in the same second. */
const TRIAGE_TS = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:-\d+)?$/;
/** Dashboard run id: `YYYY-MM-DDTHHMMSS-<actions id>`, or `YYYY-MM-DD-<actions id>` in older runs. */
const DASHBOARD_ID = /^(\d{4}-\d{2}-\d{2}(?:T\d{6})?)-\d+$/;
const NO_TICKET = "_no_ticket_";

/**
 * Reads the layout from the path segments (relative to the runs root) and the marker files:
 * `<ticket>/<workload>/<timestamp>/` (triage), `runs/<id>/[survey/]<case>/` (dashboard),
 * `<ticket>/` with matrix.json, host_env.json or agent_log.jsonl (probe/agent flat layout).
 */
export function pathFacts(segments: readonly string[], files: ReadonlySet<string>): PathFacts {
  const facts: PathFacts = { layout: "other", ticket: null, workload: null, timestamp: null, case: null, caseClass: null, dashboardRun: null };
  const last = segments.length - 1;

  const runsAt = segments.findIndex((s, i) => s === "runs" && DASHBOARD_ID.test(segments[i + 1] ?? ""));
  if (runsAt !== -1) {
    const id = segments[runsAt + 1] as string;
    facts.layout = "dashboard";
    facts.dashboardRun = id;
    facts.timestamp = DASHBOARD_ID.exec(id)?.[1] ?? null;
    const rest = segments.slice(runsAt + 2);
    if (rest[0] === "survey" && rest[1]) {
      facts.case = rest[1];
      facts.caseClass = "survey";
    } else if (rest[0] && rest[0] !== "survey") {
      facts.case = rest[0];
      facts.caseClass = "guardrail";
    }
    return facts;
  }
  const surveyAt = segments.lastIndexOf("survey");
  if (surveyAt !== -1 && surveyAt === last - 1) {
    facts.layout = "dashboard";
    facts.case = segments[last] ?? null;
    facts.caseClass = "survey";
    return facts;
  }
  const leaf = segments[last];
  if (leaf !== undefined && TRIAGE_TS.test(leaf)) {
    facts.layout = "triage";
    facts.timestamp = leaf;
    facts.workload = segments[last - 1] ?? null;
    const ticket = segments[last - 2];
    facts.ticket = ticket === undefined || ticket === NO_TICKET ? null : ticket;
    return facts;
  }
  if (files.has("matrix.json") || files.has("host_env.json") || files.has("agent_log.jsonl")) {
    facts.layout = "probe";
    facts.ticket = leaf === undefined || leaf === NO_TICKET ? null : leaf;
  }
  return facts;
}

/** A path timestamp as an ISO-8601 instant when it can be read as one (path stamps carry no zone; taken as UTC). */
export function timestampToIso(ts: string): string | null {
  let m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})(?:-\d+)?$/.exec(ts);
  if (m) return `${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`;
  m = /^(\d{4}-\d{2}-\d{2})T(\d{2})(\d{2})(\d{2})$/.exec(ts);
  if (m) return `${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`;
  if (/^\d{4}-\d{2}-\d{2}$/.test(ts)) return `${ts}T00:00:00Z`;
  const d = Date.parse(ts);
  return Number.isNaN(d) ? null : new Date(d).toISOString();
}
