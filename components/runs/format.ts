/** Number formatting shared by the run tables; `null` (not recorded) renders as an en dash, never 0. */
export const NOT_RECORDED = "–";

export function pct(v: number | null | undefined, digits = 1): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return NOT_RECORDED;
  return `${(v * 100).toFixed(digits)}%`;
}

export function ms(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return NOT_RECORDED;
  return Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(1);
}

export function ratio(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return NOT_RECORDED;
  return `${v.toFixed(2)}×`;
}

export function int(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return NOT_RECORDED;
  return v.toLocaleString("en-US");
}

/** A signed difference: "+12.5 pp" for rates, "+3.1 ms" for times. */
export function signed(v: number | null | undefined, unit: "pp" | "ms"): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return NOT_RECORDED;
  const n = unit === "pp" ? v * 100 : v;
  const text = Math.abs(n) >= 100 ? Math.abs(n).toFixed(0) : Math.abs(n).toFixed(1);
  if (text === "0.0" || text === "0") return `±0 ${unit}`;
  return `${n > 0 ? "+" : "−"}${text} ${unit}`;
}

/** "2026-04-28 14:12" in UTC: run stamps carry no zone, so showing them in local time would lie. */
export function when(iso: string | null | undefined): string {
  if (!iso) return NOT_RECORDED;
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return m ? `${m[1]} ${m[2]}` : iso;
}

export function bytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return NOT_RECORDED;
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** A JSON value on one line, bounded, for env diffs and tree leaves. */
export function jsonPreview(v: unknown, max = 120): string {
  let text: string;
  try {
    text = v === undefined ? "undefined" : JSON.stringify(v);
  } catch {
    text = String(v);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
