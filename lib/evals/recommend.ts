/**
 * The sweep's answer: per model, the (mode, protocol) cell with the best pass rate, ties going to
 * fewer tokens a trial, and the settings line that makes it the model's own. Pure.
 */
import type { GridColumn } from "./case-grid";

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

/** Better first: higher pass rate, then fewer tokens (a cell with tokens reported beats one without), then matrix order. */
function better(a: GridColumn, b: GridColumn): number {
  if (a.passRate !== b.passRate) return b.passRate - a.passRate;
  const ta = tokensPerTrial(a);
  const tb = tokensPerTrial(b);
  if (ta !== null && tb !== null && ta !== tb) return ta - tb;
  if ((ta === null) !== (tb === null)) return ta === null ? 1 : -1;
  return 0;
}

/** One recommendation per model, in the order models first appear; a model with one cell gets one too (nothing to choose, but the line still applies). */
export function recommend(columns: readonly GridColumn[]): Recommendation[] {
  const models = [...new Set(columns.map((c) => c.model))];
  return models.map((model) => {
    const mine = columns.filter((c) => c.model === model);
    const best = [...mine].sort(better)[0]!;
    return {
      model,
      mode: best.mode,
      protocol: best.mode === "text" ? best.protocol : null,
      cell: best.name,
      passRate: best.passRate,
      tokensPerTrial: tokensPerTrial(best),
      of: mine.length,
      line: settingsLine(model, best.mode, best.protocol),
    };
  });
}
