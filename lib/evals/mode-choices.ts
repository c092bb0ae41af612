/**
 * The tool-mode choices the /evals page offers, and what each asks the server for (POST /api/evals).
 * Pure data: the page imports it, and the suites listing sizes each choice with lib/evals/sweep.ts.
 */
import type { ToolMode } from "./suite-schema";

export interface ModeChoice {
  id: string;
  label: string;
  /** Omitted: the suite's own. */
  modes?: ToolMode[];
  /** "all": native and every text protocol (sweepChoice). */
  protocols?: "all";
}

export const MODE_CHOICES: readonly ModeChoice[] = [
  { id: "suite", label: "as in the suite" },
  { id: "native", label: "native", modes: ["native"] },
  { id: "text", label: "text", modes: ["text"] },
  { id: "both", label: "native + text", modes: ["native", "text"] },
  { id: "sweep", label: "sweep: native + every text protocol", modes: ["native", "text"], protocols: "all" },
];
