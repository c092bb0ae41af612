"use client";

import { TriangleAlert } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/select";
import { FetchError, fetchJson } from "@/lib/client/fetch-json";

type ArgMatch = "any" | "exact" | "pattern";

/** Regex metacharacters escaped, for an exact match written as a pattern. */
function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
}

export interface RuleDraft {
  decision: "allow" | "deny";
  toolName: string;
  input: unknown;
  /** Offer "this chat" (chat only); try-it rules apply everywhere. */
  chatId?: string;
}

/**
 * "Always…" / "Never…": a rule prefilled from the call on screen — this tool, and optionally its
 * arguments, each matched exactly or by a pattern. The server compiles it (RE2, linear time) and
 * refuses a pattern it cannot run; its answer is shown here.
 */
export function RuleForm({ draft, onSaved, onCancel }: { draft: RuleDraft; onSaved: () => void; onCancel: () => void }) {
  const args = draft.input && typeof draft.input === "object" && !Array.isArray(draft.input) ? (draft.input as Record<string, unknown>) : {};
  const [tool, setTool] = useState(draft.toolName);
  const [scope, setScope] = useState<"chat" | "everywhere">(draft.chatId ? "chat" : "everywhere");
  const [reason, setReason] = useState("");
  const [matches, setMatches] = useState<Record<string, { kind: ArgMatch; pattern: string }>>(() =>
    Object.fromEntries(
      Object.entries(args).map(([field, value]) => [field, { kind: "any", pattern: typeof value === "string" ? `^${escapeRegex(value)}$` : "" }]),
    ),
  );
  const [error, setError] = useState<string | null>(null);
  // Set when the server found the rule broad (every tool, or every call of a confirming tool): saved only once confirmed.
  const [broad, setBroad] = useState<string | null>(null);
  const [confirmBroad, setConfirmBroad] = useState(false);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    const ruleArgs: Record<string, unknown> = {};
    for (const [field, match] of Object.entries(matches)) {
      const value = args[field];
      if (match.kind === "exact") ruleArgs[field] = typeof value === "string" ? `^${escapeRegex(value)}$` : { const: value };
      if (match.kind === "pattern") ruleArgs[field] = match.pattern;
    }
    setSaving(true);
    setError(null);
    try {
      await fetchJson("/api/approval-rules", {
        method: "POST",
        json: {
          tool,
          decision: draft.decision,
          ...(reason.trim() ? { reason: reason.trim() } : {}),
          ...(Object.keys(ruleArgs).length ? { args: ruleArgs } : {}),
          chatId: scope === "chat" ? draft.chatId : null,
          ...(broad && confirmBroad ? { confirmBroad: true } : {}),
        },
      });
      onSaved();
    } catch (e) {
      if (e instanceof FetchError && e.code === "broad_rule") {
        // The server's advice on narrowing ends with the API's way to confirm; the form has its own.
        setBroad(e.message.replace(/ Narrow it[\s\S]*$/, ""));
        setConfirmBroad(false);
      } else setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };

  const verb = draft.decision === "allow" ? "Always allow" : "Never allow";
  return (
    <div data-testid="rule-form" className="mt-3 space-y-2 rounded-md border border-border bg-subtle/60 p-3 text-sm">
      <div className="font-medium">{verb} calls that match</div>
      <label className="flex items-center gap-2 text-xs text-muted">
        <span className="w-16">tool</span>
        <input
          value={tool}
          onChange={(e) => {
            setTool(e.target.value);
            setBroad(null);
          }}
          data-testid="rule-tool"
          className="h-7 flex-1 rounded-md border border-border bg-panel px-2 font-mono text-xs text-fg focus:border-accent focus:outline-none"
        />
      </label>
      {Object.entries(matches).map(([field, match]) => (
        <div key={field} className="flex items-center gap-2 text-xs text-muted">
          <span className="w-16 truncate font-mono" title={field}>
            {field}
          </span>
          <Select
            size="sm"
            value={match.kind}
            data-testid={`rule-arg-${field}`}
            aria-label={`how ${field} must match`}
            onChange={(e) => {
              setMatches((m) => ({ ...m, [field]: { ...match, kind: e.target.value as ArgMatch } }));
              setBroad(null);
            }}
          >
            <option value="any">any value</option>
            <option value="exact">exactly this value</option>
            <option value="pattern">matches a pattern</option>
          </Select>
          {match.kind === "pattern" ? (
            <input
              value={match.pattern}
              onChange={(e) => {
                setMatches((m) => ({ ...m, [field]: { ...match, pattern: e.target.value } }));
                setBroad(null);
              }}
              data-testid={`rule-pattern-${field}`}
              aria-label={`pattern for ${field} (RE2)`}
              placeholder="^ls\\b"
              className="h-7 flex-1 rounded-md border border-border bg-panel px-2 font-mono text-xs text-fg focus:border-accent focus:outline-none"
            />
          ) : null}
        </div>
      ))}
      <label className="flex items-center gap-2 text-xs text-muted">
        <span className="w-16">reason</span>
        <input
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          data-testid="rule-reason"
          placeholder={draft.decision === "deny" ? "the model receives it" : "optional"}
          className="h-7 flex-1 rounded-md border border-border bg-panel px-2 text-xs text-fg focus:border-accent focus:outline-none"
        />
      </label>
      <div className="flex items-center gap-2 text-xs text-muted">
        <span className="w-16">applies</span>
        <Select
          size="sm"
          value={scope}
          data-testid="rule-scope"
          aria-label="where the rule applies"
          onChange={(e) => setScope(e.target.value as "chat" | "everywhere")}
        >
          {draft.chatId ? <option value="chat">in this chat</option> : null}
          <option value="everywhere">everywhere</option>
        </Select>
        <span>· settings rules (approvals.rules) always come first</span>
      </div>
      {broad ? (
        <div role="alert" data-testid="rule-broad" className="space-y-1 rounded-md border border-pending/50 bg-pending/10 p-2 text-xs">
          <p className="flex items-start gap-1.5 text-fg">
            <TriangleAlert aria-hidden className="mt-0.5 size-3.5 shrink-0 text-amber-700 dark:text-pending" />
            {broad}
          </p>
          <label className="flex items-center gap-2 text-fg">
            <input type="checkbox" checked={confirmBroad} onChange={(e) => setConfirmBroad(e.target.checked)} data-testid="rule-confirm-broad" />
            Save it anyway: I mean to allow all of these without being asked (or narrow it: match an argument exactly or by a pattern)
          </label>
        </div>
      ) : null}
      {error ? (
        <p role="alert" data-testid="rule-error" className="text-xs text-denied">
          {error}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button size="sm" variant="ghost" onClick={onCancel} disabled={saving}>
          Cancel
        </Button>
        <Button
          size="sm"
          variant={draft.decision === "allow" ? "primary" : "danger"}
          data-testid="rule-save"
          onClick={() => void save()}
          disabled={saving || !tool.trim() || (broad !== null && !confirmBroad)}
        >
          {draft.decision === "allow" ? "Save rule and approve" : "Save rule and deny"}
        </Button>
      </div>
    </div>
  );
}
