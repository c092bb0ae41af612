import { Coins, TriangleAlert } from "lucide-react";
import type { ToolsResponse } from "@/lib/server/tools-page/tools-view";

const PROTOCOL_LABELS: Record<string, string> = { action: "ACTION", json: "JSON tag", hermes: "Hermes", xml: "XML", llama: "Llama", mistral: "Mistral" };

/** What the offered tools cost a model per request, per tool mode and protocol; a warning past `plugins.warnAboveTools`. */
export function TokenCostPanel({ cost }: { cost: ToolsResponse["cost"] }) {
  const over = cost.offered > cost.warnAbove;
  return (
    <section data-testid="token-cost" aria-label="Token cost of the tools" className="rounded-lg border border-border bg-panel px-3 py-2 text-sm">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Coins size={14} className="text-muted" aria-hidden />
        <span>
          {cost.offered} tools offered cost about{" "}
          <strong className="tabular" data-testid="token-total-native">
            {cost.totals.native.toLocaleString("en-US")}
          </strong>{" "}
          tokens natively
        </span>
        <span className="text-xs text-muted tabular" data-testid="token-total-text">
          text mode:{" "}
          {Object.entries(cost.totals.text)
            .map(([p, n]) => `${PROTOCOL_LABELS[p] ?? p} ${n.toLocaleString("en-US")}`)
            .join(" · ")}
        </span>
        <span className="text-xs text-muted">estimate, tokenizer {cost.tokenizer}</span>
      </div>
      {over ? (
        <p className="mt-1 flex items-center gap-1.5 text-xs text-amber-700 dark:text-pending" role="note" data-testid="token-warning">
          <TriangleAlert size={13} aria-hidden />
          {cost.offered} tools are offered, more than {cost.warnAbove} (plugins.warnAboveTools): some clients cap the tool list (Cursor 40–80, Windsurf 50, VS
          Code 128) and every request carries all of them. Disable tools you do not need with tools.&lt;name&gt;.enabled: false.
        </p>
      ) : null}
    </section>
  );
}
