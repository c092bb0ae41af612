import { CircleAlert, CircleCheck, TriangleAlert } from "lucide-react";
import type { LintFinding } from "@/lib/tools/lint";
import type { ToolCost } from "@/lib/server/tools-page/token-cost";

/** What the tool costs a model per request (an estimate) and what its text leaves out (the lint). */
export function ToolQuality({ cost, tokenizer, findings }: { cost: ToolCost; tokenizer: string; findings: LintFinding[] }) {
  return (
    <div className="space-y-3 text-sm">
      <p data-testid="tool-token-cost">
        About <strong className="tabular">{cost.native.toLocaleString("en-US")}</strong> tokens per request in native mode (name, description, schema), and{" "}
        <strong className="tabular">{cost.text.toLocaleString("en-US")}</strong> as its line in a text-mode prompt (any protocol).{" "}
        <span className="text-xs text-muted">Estimate, tokenizer {tokenizer}; other models count differently.</span>
      </p>
      {findings.length === 0 ? (
        <p className="flex items-center gap-1.5 text-xs text-done" data-testid="lint-clean">
          <CircleCheck size={13} aria-hidden /> The description lint finds nothing to add.
        </p>
      ) : (
        <ul className="space-y-1.5" data-testid="lint-findings">
          {findings.map((f, i) => (
            <li key={i} className="flex items-start gap-1.5" data-testid="lint-finding" data-rule={f.rule} data-severity={f.severity}>
              {f.severity === "error" ? (
                <CircleAlert size={14} className="mt-0.5 shrink-0 text-denied" aria-label="error" />
              ) : (
                <TriangleAlert size={14} className="mt-0.5 shrink-0 text-pending" aria-label="warning" />
              )}
              <span>
                {f.message} <code className="font-mono text-[11px] text-muted">{f.rule}</code>
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
