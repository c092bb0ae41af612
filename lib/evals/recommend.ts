/**
 * The sweep's answer: per model, the (mode, protocol) cell with the best pass rate, ties going to
 * fewer tokens a trial, then to the model's configured mode and protocol (as env.json recorded them
 * at run time), then to matrix order — and the settings line that makes it the model's own. Cells
 * equal on pass rate and tokens are named as a tie: the data cannot tell them apart. Pure.
 */
import { z } from "zod";
import type { GridColumn } from "./case-grid";

/** How a model takes tools when nothing else says: `llms.<name>.toolMode` (else `chat.toolMode`) and its protocol. */
export interface ConfiguredMode {
  toolMode: "native" | "text" | "auto";
  textProtocol: string;
}

/** env.json's `models` as recorded; a run written before the field was recorded has none, and gets no preference. */
const recordedModels = z.record(z.string(), z.object({ toolMode: z.enum(["native", "text", "auto"]), textProtocol: z.string() }).partial());

/** Each model's configured mode and protocol from env.json's `models` (what runs before this recorded lack is left out). */
export function configuredModes(models: unknown): Record<string, ConfiguredMode> {
  const parsed = recordedModels.safeParse(models);
  if (!parsed.success) return {};
  const out: Record<string, ConfiguredMode> = {};
  for (const [model, m] of Object.entries(parsed.data)) if (m.toolMode && m.textProtocol) out[model] = { toolMode: m.toolMode, textProtocol: m.textProtocol };
  return out;
}

export interface Recommendation {
  model: string;
  mode: string;
  protocol: string | null;
  cell: string;
  passRate: number;
  /** Mean input + output tokens a trial; null when the provider reported none. */
  tokensPerTrial: number | null;
  /** Cells of this model it was chosen from. */
  of: number;
  /** The chosen cell is the model's configured mode (and, in text mode, protocol): the line changes nothing. */
  configured: boolean;
  /** Other cells with the same pass rate and tokens a trial: as good, as far as this run shows. */
  tiedWith: string[];
  /** Among a tie, why this cell: the only configured one among them, else the first in the matrix. Null without a tie. */
  tieBreak: "configured" | "matrix order" | null;
  /** `llms.<name>: { toolMode, textProtocol }`, to paste into the model's settings entry. */
  line: string;
}

function tokensPerTrial(c: Pick<GridColumn, "tokens">): number | null {
  return c.tokens.reported ? (c.tokens.input + c.tokens.output) / c.tokens.reported : null;
}

/** YAML flow mapping keys need no quotes when they are plain identifiers; other names are quoted. */
function yamlKey(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(name) ? name : JSON.stringify(name);
}

function settingsLine(model: string, mode: string, protocol: string | null): string {
  const fields = mode === "text" && protocol ? `toolMode: text, textProtocol: ${protocol}` : `toolMode: ${mode}`;
  return `llms.${yamlKey(model)}: { ${fields} }`;
}

/** A cell the model already runs in: its mode (either, under `auto`) and, in text mode, its protocol. */
function isConfigured(c: GridColumn, conf: ConfiguredMode | undefined): boolean {
  if (!conf || (conf.toolMode !== "auto" && conf.toolMode !== c.mode)) return false;
  return c.mode !== "text" || c.protocol === conf.textProtocol;
}

/** Better first on what the run measured: higher pass rate, then fewer tokens (a cell with tokens reported beats one without); 0 = a tie. */
function measured(a: GridColumn, b: GridColumn): number {
  if (a.passRate !== b.passRate) return b.passRate - a.passRate;
  const ta = tokensPerTrial(a);
  const tb = tokensPerTrial(b);
  if (ta !== null && tb !== null && ta !== tb) return ta - tb;
  if ((ta === null) !== (tb === null)) return ta === null ? 1 : -1;
  return 0;
}

/** One recommendation per model, in the order models first appear; a model with one cell gets one too (nothing to choose, but the line still applies). */
export function recommend(columns: readonly GridColumn[], configured: Readonly<Record<string, ConfiguredMode>> = {}): Recommendation[] {
  const models = [...new Set(columns.map((c) => c.model))];
  return models.map((model) => {
    const mine = columns.filter((c) => c.model === model);
    const own = (c: GridColumn) => isConfigured(c, configured[model]);
    // Stable: equal cells keep matrix order.
    const ranked = [...mine].sort((a, b) => measured(a, b) || Number(own(b)) - Number(own(a)));
    const best = ranked[0]!;
    const tied = ranked.filter((c) => c !== best && measured(c, best) === 0);
    return {
      model,
      mode: best.mode,
      protocol: best.mode === "text" ? best.protocol : null,
      cell: best.name,
      passRate: best.passRate,
      tokensPerTrial: tokensPerTrial(best),
      of: mine.length,
      configured: own(best),
      tiedWith: tied.map((c) => c.name),
      tieBreak: tied.length === 0 ? null : own(best) && !tied.some(own) ? "configured" : "matrix order",
      line: settingsLine(model, best.mode, best.protocol),
    };
  });
}
