"use client";

import { useMounted } from "@/components/ui/use-mounted";
import { memo } from "react";
import { cn } from "@/components/ui/cn";
import { pct, ratio } from "./format";
import { HEAT_METRICS, heatBackground, type HeatMetric, heatShade, heatTextLight, heatValue } from "./heat";
import type { CellView } from "./types";
import { Button } from "@/components/ui/button";

/** Up to this many cells get labelled tiles; more get small squares (names in tooltips). */
const LABELLED_MAX = 120;

const HATCH = "repeating-linear-gradient(135deg, color-mix(in srgb, var(--fg) 30%, transparent) 0 1px, transparent 1px 5px)";

function valueText(v: number | null, metric: HeatMetric): string {
  if (v === null) return "not recorded";
  return metric === "ratio" ? ratio(v) : pct(v);
}

function tileStyle(cell: CellView, metric: HeatMetric) {
  const shade = heatShade(heatValue(cell, metric), metric);
  const bg = heatBackground(shade);
  return {
    shade,
    style: { backgroundColor: bg, backgroundImage: cell.unreliable ? HATCH : undefined },
  };
}

function tooltip(cell: CellView, metric: HeatMetric): string {
  const label = HEAT_METRICS.find((m) => m.id === metric)?.label ?? metric;
  const flags = [cell.baseline ? "baseline" : null, cell.unreliable ? "unreliable" : null, cell.error ? `error: ${cell.error}` : null].filter(Boolean);
  return `${cell.name}\n${label}: ${valueText(heatValue(cell, metric), metric)}${flags.length ? `\n${flags.join(" · ")}` : ""}`;
}

export function MetricSwitch({ metric, onChange }: { metric: HeatMetric; onChange: (m: HeatMetric) => void }) {
  return (
    <div role="group" aria-label="Heat-map metric" className="inline-flex rounded-md border border-border bg-panel p-0.5" data-testid="heat-metric">
      {HEAT_METRICS.map((m) => (
        <Button
          key={m.id}
          variant="plain"
          size="bare"
          aria-pressed={metric === m.id}
          data-testid={`heat-metric-${m.id}`}
          onClick={() => onChange(m.id)}
          className={cn("rounded px-2 py-0.5 text-xs", metric === m.id ? "bg-accent-soft font-medium text-fg" : "text-muted hover:text-fg")}
        >
          {m.label}
        </Button>
      ))}
    </div>
  );
}

/** Cells as tiles coloured by one metric. Click a tile to open that cell in the table below. */
export const HeatMap = memo(function HeatMap({ cells, metric, onPick }: { cells: readonly CellView[]; metric: HeatMetric; onPick: (index: number) => void }) {
  const labelled = cells.length <= LABELLED_MAX;
  // Thousands of tiles are drawn in the browser only: in the server's HTML they would be most of the page's weight.
  const mounted = useMounted();
  if (!labelled && !mounted) {
    return (
      <div className="flex h-24 items-center justify-center text-xs text-muted" data-testid="heat-map-loading">
        Drawing {cells.length.toLocaleString("en-US")} tiles…
      </div>
    );
  }
  return (
    <div className="space-y-2">
      <div
        data-testid="heat-map"
        data-metric={metric}
        className={cn("flex flex-wrap", labelled ? "gap-1.5" : "gap-px")}
        onClick={(e) => {
          // One listener for thousands of tiles.
          const tile = (e.target as HTMLElement).closest<HTMLElement>("[data-i]");
          if (tile?.dataset.i) onPick(Number(tile.dataset.i));
        }}
      >
        {cells.map((cell) => {
          const { shade, style } = tileStyle(cell, metric);
          const missing = shade.kind === "missing";
          const common = {
            "data-i": cell.index,
            "data-testid": "heat-tile",
            "data-cell": cell.name,
            "data-state": missing ? "missing" : shade.kind,
            title: tooltip(cell, metric),
            style,
          };
          return labelled ? (
            <Button
              key={cell.index}
              variant="plain"
              size="bare"
              {...common}
              className={cn(
                "flex h-11 w-36 flex-col justify-center rounded border px-2 text-left",
                missing ? "border-dashed border-muted/60" : "border-border",
                cell.baseline && "ring-2 ring-accent ring-offset-1 ring-offset-[var(--panel)]",
                heatTextLight(shade) && "text-white",
              )}
            >
              <span className="flex items-center gap-1 truncate font-mono text-[11px] leading-4">
                {cell.baseline ? <span className="rounded-sm bg-accent px-0.5 text-[9px] font-semibold text-white">B</span> : null}
                <span className="truncate">{cell.name}</span>
              </span>
              <span className={cn("font-mono text-xs leading-4 tabular", missing && "text-muted italic")}>
                {missing ? "not recorded" : valueText(heatValue(cell, metric), metric)}
              </span>
            </Button>
          ) : (
            <div
              key={cell.index}
              {...common}
              className={cn(
                "size-3 cursor-pointer rounded-[2px]",
                missing ? "border border-dashed border-muted/70" : "",
                cell.baseline && "outline-2 outline-accent",
              )}
            />
          );
        })}
      </div>
      <HeatLegend metric={metric} />
    </div>
  );
});

function Swatch({ style, className }: { style?: React.CSSProperties; className?: string }) {
  return <span aria-hidden className={cn("inline-block size-3 rounded-[2px] border border-border align-middle", className)} style={style} />;
}

function HeatLegend({ metric }: { metric: HeatMetric }) {
  const scale = metric === "ratio" ? [0.6, 0.85, 1, 1.15, 1.4] : [0, 0.1, 0.3, 0.6, 1];
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted" data-testid="heat-legend">
      <span className="flex items-center gap-1">
        {scale.map((v) => (
          <Swatch key={v} style={{ backgroundColor: heatBackground(heatShade(v, metric)) }} />
        ))}
        <span className="ml-1">{metric === "ratio" ? "faster ← 1.00× (vs baseline) → slower" : "0% → 100%"}</span>
      </span>
      <span className="flex items-center gap-1">
        <Swatch className="border-dashed border-muted" /> not recorded
      </span>
      <span className="flex items-center gap-1">
        <Swatch style={{ backgroundImage: HATCH }} /> unreliable
      </span>
      <span className="flex items-center gap-1">
        <Swatch className="ring-2 ring-accent" /> baseline
      </span>
    </div>
  );
}
