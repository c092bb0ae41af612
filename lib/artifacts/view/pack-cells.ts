import type { CellView, PackedCells } from "./types";

/** Packs cells column-wise (see PackedCells); `unpackCells(packCells(x))` equals `x`. */
export function packCells(cells: readonly CellView[]): PackedCells {
  const first = cells[0];
  if (!first) return { keys: [], rows: [] };
  const keys = Object.keys(first) as (keyof CellView)[];
  return { keys, rows: cells.map((c) => keys.map((k) => c[k])) };
}

export function unpackCells(packed: PackedCells): CellView[] {
  const { keys, rows } = packed;
  return rows.map((row) => {
    const cell: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) cell[keys[i] as string] = row[i];
    return cell as unknown as CellView;
  });
}
