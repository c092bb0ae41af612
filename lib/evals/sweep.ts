import { TEXT_PROTOCOLS, type TextProtocol } from "@/lib/chat/text-protocol/types";
import type { Settings } from "@/lib/settings/schema";
import type { ModeChoice } from "./mode-choices";
import { matrixCells, type MatrixChoice } from "./runner";
import type { Suite, ToolMode } from "./suite-schema";

/** `protocols: "all"` (the CLI's `--protocols all`, POST /api/evals, the /evals form's sweep): native and every text protocol, unless modes are named too. */
export function sweepChoice<C extends Omit<MatrixChoice, "protocols"> & { protocols?: TextProtocol[] | "all" }>(
  choice: C,
): MatrixChoice & Omit<C, "protocols"> {
  if (choice.protocols !== "all") return choice as MatrixChoice & Omit<C, "protocols">;
  const modes: ToolMode[] = choice.modes ?? ["native", "text"];
  return { ...choice, modes, protocols: [...TEXT_PROTOCOLS] };
}

/** What one of the page's mode choices would run: its modes, text protocols, cells and trials (in all and per model). */
export interface SweepSize {
  modes: ToolMode[];
  protocols: number;
  cells: number;
  trials: number;
  trialsPerModel: Record<string, number>;
}

/** A mode choice sized through sweepChoice and matrixCells, the expansion POST /api/evals runs: the page's line cannot drift from it. */
export function sweepSize(suite: Suite, settings: Settings, choice: ModeChoice): SweepSize {
  const asked = sweepChoice({ ...(choice.modes ? { modes: choice.modes } : {}), ...(choice.protocols ? { protocols: choice.protocols } : {}) });
  const cells = matrixCells(suite, settings, asked);
  const perCell = suite.cases.length * (asked.trials ?? suite.matrix.trials);
  const trialsPerModel: Record<string, number> = {};
  for (const c of cells) trialsPerModel[c.model] = (trialsPerModel[c.model] ?? 0) + perCell;
  return {
    modes: [...new Set(cells.map((c) => c.mode))],
    protocols: new Set(cells.flatMap((c) => (c.mode === "text" ? [c.protocol] : []))).size,
    cells: cells.length,
    trials: cells.length * perCell,
    trialsPerModel,
  };
}
