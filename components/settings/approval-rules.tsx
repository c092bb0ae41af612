"use client";

import { useMayAct } from "@/components/auth/person-context";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { TriangleAlert } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Select } from "@/components/ui/select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { fetchJson } from "@/lib/client/fetch-json";
import { queryKeys } from "@/lib/client/query-keys";
import type { RuleView } from "@/lib/server/approvals/rule-admin";

const DECISION_TONE: Record<RuleView["decision"], BadgeTone> = { allow: "done", ask: "pending", deny: "denied" };

/** What a rule matches, in the settings form's words: `tool=run_* · source=mcp:* · command~^ls\b`. */
function matchText(rule: RuleView): string {
  const parts = [
    rule.tool ? `tool=${rule.tool}` : null,
    rule.source ? `source=${rule.source}` : null,
    rule.readonly === undefined ? null : rule.readonly ? "read-only" : "not read-only",
    ...Object.entries(rule.args ?? {}).map(([field, m]) => (typeof m === "string" ? `${field}~${m}` : `${field}:${JSON.stringify(m)}`)),
  ].filter(Boolean);
  return parts.length ? parts.join(" · ") : "every call";
}

function when(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : "never";
}

/** Every approval rule in precedence order; UI rules can be edited, disabled and deleted here. */
export function ApprovalRules({ initial }: { initial: RuleView[] }) {
  const queryClient = useQueryClient();
  const { data: rules } = useQuery({
    queryKey: queryKeys.approvalRules.all,
    queryFn: async () => (await fetchJson<{ rules: RuleView[] }>("/api/approval-rules")).rules,
    initialData: initial,
  });
  const [editing, setEditing] = useState<string | null>(null);
  // Rules are an admin's (the server refuses anyone else's change anyway).
  const mayEdit = useMayAct("admin");

  const change = async (what: string, request: () => Promise<unknown>) => {
    try {
      await request();
    } catch (error) {
      toast.error(`Could not ${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
    await queryClient.invalidateQueries({ queryKey: queryKeys.approvalRules.all });
  };
  const patch = (id: string, json: unknown) => fetchJson(`/api/approval-rules/${encodeURIComponent(id)}`, { method: "PATCH", json });

  if (rules.length === 0)
    return (
      <EmptyState title="No approval rules yet" testId="rules-empty">
        Choose “Always…” or “Never…” in an approval dialog, or add <code className="font-mono">approvals.rules</code> to toolroom.yaml (see docs/security.md).
        Without rules every call that asks for confirmation opens the dialog.
      </EmptyState>
    );

  return (
    <div className="overflow-x-auto rounded-md border border-border">
      <Table data-testid="rules-table">
        <TableHeader>
          <TableRow>
            <TableHead numeric>#</TableHead>
            <TableHead>Decision</TableHead>
            <TableHead>Rule</TableHead>
            <TableHead>Matches</TableHead>
            <TableHead>Applies</TableHead>
            <TableHead>From</TableHead>
            <TableHead numeric>Matched</TableHead>
            <TableHead>Last matched</TableHead>
            <TableHead />
          </TableRow>
        </TableHeader>
        <TableBody>
          {rules.map((rule, index) =>
            editing === rule.id && rule.id ? (
              <TableRow key={rule.key}>
                <TableCell colSpan={9}>
                  <RuleEditor
                    rule={rule}
                    onCancel={() => setEditing(null)}
                    onSave={(json) =>
                      change("save the rule", async () => {
                        await patch(rule.id!, json);
                        setEditing(null);
                      })
                    }
                  />
                </TableCell>
              </TableRow>
            ) : (
              <TableRow
                key={rule.key}
                data-testid="rule-row"
                data-origin={rule.origin}
                data-enabled={rule.enabled}
                className={rule.enabled ? "" : "opacity-55"}
              >
                <TableCell numeric>{index + 1}</TableCell>
                <TableCell>
                  <Badge tone={DECISION_TONE[rule.decision]}>{rule.decision}</Badge>
                </TableCell>
                <TableCell className="min-w-56">
                  <div className="font-medium" data-testid="rule-name">
                    {rule.name}
                  </div>
                  {rule.reason ? <div className="text-xs text-muted">{rule.reason}</div> : null}
                  {rule.broad ? (
                    <div data-testid="rule-broad-warning" className="mt-0.5 flex items-start gap-1 text-xs text-amber-700 dark:text-pending">
                      <TriangleAlert aria-hidden className="mt-0.5 size-3.5 shrink-0" />
                      <span>Broad: {rule.broad}.</span>
                    </div>
                  ) : null}
                </TableCell>
                <TableCell className="max-w-[22rem] min-w-48 font-mono text-xs [overflow-wrap:anywhere]">{matchText(rule)}</TableCell>
                <TableCell className="text-xs">
                  {rule.scope.kind === "chat" ? (
                    <a href={`/chat/${rule.scope.chatId}`} className="text-accent hover:underline">
                      chat “{rule.scope.title}”
                    </a>
                  ) : (
                    "everywhere"
                  )}
                </TableCell>
                <TableCell className="text-xs">
                  {rule.origin === "settings" ? (
                    <span title="Edit it in that file; settings rules outrank rules saved here">
                      <Badge tone="violet">settings</Badge> <span className="font-mono text-muted">{rule.file}</span>
                    </span>
                  ) : (
                    <Badge>saved here</Badge>
                  )}
                </TableCell>
                <TableCell numeric data-testid="rule-count">
                  {rule.matchCount}
                </TableCell>
                <TableCell className="text-xs whitespace-nowrap text-muted">{when(rule.lastMatchedAt)}</TableCell>
                <TableCell className="whitespace-nowrap">
                  {rule.id && mayEdit ? (
                    <span className="flex justify-end gap-1">
                      <Button size="sm" variant="ghost" data-testid="rule-edit" onClick={() => setEditing(rule.id!)}>
                        Edit
                      </Button>
                      <Button
                        size="sm"
                        variant="ghost"
                        data-testid="rule-toggle"
                        onClick={() => void change(rule.enabled ? "disable the rule" : "enable the rule", () => patch(rule.id!, { enabled: !rule.enabled }))}
                      >
                        {rule.enabled ? "Disable" : "Enable"}
                      </Button>
                      <Button
                        size="sm"
                        variant="danger"
                        data-testid="rule-delete"
                        onClick={() =>
                          void change("delete the rule", () => fetchJson(`/api/approval-rules/${encodeURIComponent(rule.id!)}`, { method: "DELETE" }))
                        }
                      >
                        Delete
                      </Button>
                    </span>
                  ) : (
                    <span className="block text-right text-xs text-muted">read-only</span>
                  )}
                </TableCell>
              </TableRow>
            ),
          )}
        </TableBody>
      </Table>
    </div>
  );
}

/** Edits a UI rule's match and decision; the server compiles it and names a field it refuses. */
function RuleEditor({ rule, onSave, onCancel }: { rule: RuleView; onSave: (json: unknown) => Promise<void>; onCancel: () => void }) {
  const [decision, setDecision] = useState(rule.decision);
  const [tool, setTool] = useState(rule.tool ?? "");
  const [source, setSource] = useState(rule.source ?? "");
  const [reason, setReason] = useState(rule.reason ?? "");
  const [args, setArgs] = useState(rule.args ? JSON.stringify(rule.args, null, 2) : "");
  // A broad allow (every tool, or every call of a confirming tool) is saved only when confirmed here.
  const [confirmBroad, setConfirmBroad] = useState(rule.broad !== undefined);
  let parsedArgs: unknown;
  let argsError: string | null = null;
  try {
    parsedArgs = args.trim() ? JSON.parse(args) : undefined;
  } catch (error) {
    argsError = (error as Error).message;
  }
  const input = "h-7 rounded-md border border-border bg-panel px-2 font-mono text-xs text-fg focus:border-accent focus:outline-none";
  return (
    <div data-testid="rule-editor" className="grid gap-2 text-xs sm:grid-cols-[6rem_1fr]">
      <span className="text-muted">decision</span>
      <Select size="sm" value={decision} onChange={(e) => setDecision(e.target.value as RuleView["decision"])} className="w-28">
        <option value="allow">allow</option>
        <option value="ask">ask</option>
        <option value="deny">deny</option>
      </Select>
      <span className="text-muted">tool (glob)</span>
      <input value={tool} onChange={(e) => setTool(e.target.value)} className={input} placeholder="any tool" />
      <span className="text-muted">source (glob)</span>
      <input value={source} onChange={(e) => setSource(e.target.value)} className={input} placeholder="any source: a package, mcp:<server>, built-in" />
      <span className="text-muted">arguments</span>
      <div>
        <textarea
          value={args}
          onChange={(e) => setArgs(e.target.value)}
          rows={3}
          aria-invalid={argsError !== null}
          className="w-full rounded-md border border-border bg-panel p-2 font-mono text-xs text-fg focus:border-accent focus:outline-none aria-invalid:border-denied"
          placeholder='{ "command": "^(ls|git status)\\b" }'
        />
        {argsError ? <p className="text-denied">not JSON: {argsError}</p> : null}
      </div>
      <span className="text-muted">reason</span>
      <input value={reason} onChange={(e) => setReason(e.target.value)} className={input} />
      {decision === "allow" ? (
        <label className="flex items-center gap-2 sm:col-start-2">
          <input type="checkbox" checked={confirmBroad} onChange={(e) => setConfirmBroad(e.target.checked)} data-testid="rule-editor-confirm-broad" />
          <span>I confirm it, if it allows every tool or every call of a tool that asks for confirmation</span>
        </label>
      ) : null}
      <div className="flex gap-2 sm:col-start-2">
        <Button
          size="sm"
          variant="primary"
          data-testid="rule-editor-save"
          disabled={argsError !== null}
          onClick={() =>
            void onSave({
              decision,
              ...(tool.trim() ? { tool: tool.trim() } : {}),
              ...(source.trim() ? { source: source.trim() } : {}),
              ...(rule.readonly !== undefined ? { readonly: rule.readonly } : {}),
              ...(parsedArgs ? { args: parsedArgs } : {}),
              ...(reason.trim() ? { reason: reason.trim() } : {}),
              ...(decision === "allow" && confirmBroad ? { confirmBroad: true } : {}),
            })
          }
        >
          Save
        </Button>
        <Button size="sm" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
