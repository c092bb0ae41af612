/**
 * The one place a cell's name is made: `<model> · native`, `<model> · text · <protocol>`. Runs,
 * their files, the reporters, the grid and the diff all key a cell by it, so two runs in different
 * text protocols never share a cell, even when each run has only one.
 */
export function cellName(model: string, mode: string, protocol: string | null): string {
  return mode === "text" && protocol ? `${model} · text · ${protocol}` : `${model} · ${mode}`;
}

/**
 * A recorded trial's cell, named again from its model, mode and protocol: runs written before every
 * text cell named its protocol say `<model> · text` whatever the protocol was.
 */
export function recordedCell(t: { cell: string; model?: unknown; mode?: unknown; protocol?: unknown }): string {
  return typeof t.model === "string" && typeof t.mode === "string" ? cellName(t.model, t.mode, typeof t.protocol === "string" ? t.protocol : null) : t.cell;
}
