"use client";

import { Loader2, Play } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { ApprovalDialog } from "@/components/approvals/approval-dialog";
import { ElicitationDialog } from "@/components/approvals/elicitation-dialog";
import { SaveCallAction } from "@/components/collections/save-call-action";
import { useElicitations } from "@/components/approvals/use-elicitations";
import type { Schema } from "../schema-rows";
import { Elapsed } from "./elapsed";
import { formModel, initialObject, issuesByPath } from "./form-model";
import { useRecentCalls } from "./recent-calls";
import { RecentList } from "./recent-list";
import { ResultView } from "./result-view";
import { SchemaForm } from "./schema-form";
import { useTryIt } from "./use-try-it";
import { validateAgainst, type Issue } from "./validate";
import { Button } from "@/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { confirmationSentence } from "@/lib/tools/registry-json";

export interface TryItPanelProps {
  tool: string;
  schema: Schema;
  enabled: boolean;
  requiresConfirmation: boolean;
  /** `confirm.when`, shown as the badge shows it. */
  confirmWhen: string | null;
}

/** The JSON editor's text as a value, or undefined while it does not parse. */
function parseOr(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

function pretty(v: unknown): string {
  return JSON.stringify(v ?? {}, null, 2);
}

/** A form generated from the input schema (or raw JSON), checked here, run on the server. */
export function TryItPanel({ tool, schema, enabled, requiresConfirmation, confirmWhen }: TryItPanelProps) {
  const fields = useMemo(() => formModel(schema), [schema]);
  const [mode, setMode] = useState<"form" | "json">(fields ? "form" : "json");
  const [value, setValue] = useState<Record<string, unknown>>(() => (fields ? initialObject(fields) : {}));
  const [raw, setRaw] = useState(() => pretty(fields ? initialObject(fields) : {}));
  const [rawError, setRawError] = useState<string | null>(null);
  const [clientIssues, setClientIssues] = useState<Issue[]>([]);
  const jsonErrorId = useId();
  const recent = useRecentCalls(tool);
  const { state, run, approve, deny } = useTryIt(tool, recent.add);
  const issues = useMemo(() => issuesByPath([...clientIssues, ...state.serverIssues]), [clientIssues, state.serverIssues]);
  const busy = state.running || state.approval !== null;
  const elicitation = useElicitations(state.elicitScope ? `try-it:${state.elicitScope}` : null, state.running);

  const currentInput = (): { ok: true; input: unknown } | { ok: false } => {
    if (mode === "form") return { ok: true, input: value };
    try {
      const parsed: unknown = JSON.parse(raw);
      setRawError(null);
      return { ok: true, input: parsed };
    } catch (error) {
      setRawError((error as Error).message);
      return { ok: false };
    }
  };

  const submit = (input?: unknown) => {
    const current = input !== undefined ? { ok: true as const, input } : currentInput();
    if (!current.ok) return;
    const found = validateAgainst(schema, current.input);
    setClientIssues(found);
    if (found.length) return;
    void run(current.input);
  };

  const switchMode = (next: string) => {
    if (next === "json") setRaw(pretty(value));
    if (next === "form") {
      try {
        const parsed: unknown = JSON.parse(raw);
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("the form edits an object; keep editing as JSON");
        setValue(parsed as Record<string, unknown>);
        setRawError(null);
      } catch (error) {
        setRawError((error as Error).message);
        return;
      }
    }
    setMode(next as "form" | "json");
  };

  if (!enabled) {
    return (
      <p data-testid="try-it-disabled" className="rounded-md border border-dashed border-border p-3 text-sm text-muted">
        This tool is disabled by <code className="font-mono">tools.{tool}.enabled: false</code> in the settings, so it cannot be run here or offered to a model.
        Enable it in <code className="font-mono">toolroom.yaml</code> and restart the server to try it.
      </p>
    );
  }

  const clientSummary = clientIssues.filter((i) => i.path === "" || (mode === "json" && i.path !== ""));
  const jsonInvalid = rawError !== null || clientSummary.length > 0;
  return (
    <div className="space-y-4" data-testid="try-it">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        onKeyDown={(e) => {
          // Ctrl/Cmd+Enter runs from anywhere in the form, textareas included.
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            submit();
          }
        }}
      >
        <Tabs value={mode} onValueChange={switchMode}>
          <TabsList className="mb-3" aria-label="Input editor">
            <TabsTrigger value="form" disabled={!fields} data-testid="try-it-tab-form">
              Form
            </TabsTrigger>
            <TabsTrigger value="json" data-testid="try-it-tab-json">
              JSON
            </TabsTrigger>
          </TabsList>
          <TabsContent value="form">
            {fields ? <SchemaForm fields={fields} value={value} onChange={setValue} issues={issues} disabled={busy} /> : null}
          </TabsContent>
          <TabsContent value="json">
            {!fields ? <p className="mb-2 text-xs text-muted">This schema has no form; write the input as JSON.</p> : null}
            <textarea
              aria-label="Input as JSON"
              data-testid="try-it-json"
              aria-invalid={jsonInvalid || undefined}
              aria-describedby={
                [rawError !== null ? `${jsonErrorId}-parse` : undefined, clientSummary.length > 0 ? `${jsonErrorId}-issues` : undefined]
                  .filter(Boolean)
                  .join(" ") || undefined
              }
              value={raw}
              rows={8}
              disabled={busy}
              onChange={(e) => setRaw(e.target.value)}
              className="w-full rounded-md border border-border bg-panel p-2 font-mono text-xs leading-5 focus:border-accent focus:outline-none"
            />
          </TabsContent>
        </Tabs>
        {rawError ? (
          <p id={`${jsonErrorId}-parse`} className="mt-1 text-xs text-denied">
            The input is not valid JSON: {rawError}
          </p>
        ) : null}
        {clientSummary.length > 0 ? (
          <ul id={`${jsonErrorId}-issues`} className="mt-2 space-y-0.5 text-xs text-denied" data-testid="try-it-issues">
            {clientSummary.map((i) => (
              <li key={`${i.path}:${i.message}`}>
                <span className="font-mono">{i.path || "input"}</span>: {i.message}
              </li>
            ))}
          </ul>
        ) : clientIssues.length > 0 ? (
          <p className="mt-2 text-xs text-denied" data-testid="try-it-issues">
            Fix the marked fields first.
          </p>
        ) : null}
        <div className="mt-3 flex items-center gap-3">
          <Button type="submit" variant="primary" disabled={busy} data-testid="try-it-run">
            {state.running ? <Loader2 size={14} className="animate-spin" aria-hidden /> : <Play size={14} aria-hidden />}
            Run
          </Button>
          {state.running && state.startedAt ? (
            <span className="text-xs text-running" data-testid="try-it-running">
              running… <Elapsed since={state.startedAt} />
            </span>
          ) : state.approval ? (
            <span className="text-xs text-amber-700 dark:text-pending">waiting for your approval…</span>
          ) : (
            <span className="text-xs text-muted">
              {requiresConfirmation ? `${confirmationSentence(confirmWhen)} ` : ""}
              <kbd className="font-mono">Ctrl</kbd>+<kbd className="font-mono">Enter</kbd> runs
            </span>
          )}
          <span className="ml-auto">
            <SaveCallAction tool={tool} input={() => (mode === "form" ? value : (parseOr(raw) ?? {}))} result={state.result} disabled={busy} />
          </span>
        </div>
      </form>

      {state.result ? <ResultView result={state.result} /> : null}

      <RecentList
        calls={recent.calls}
        disabled={busy}
        onClear={recent.clear}
        onRunAgain={(call) => {
          const input = call.input;
          if (fields && typeof input === "object" && input !== null && !Array.isArray(input)) setValue(input as Record<string, unknown>);
          setRaw(pretty(input));
          submit(input);
        }}
      />

      <ApprovalDialog
        request={state.approval ? { ...state.approval, inputSchema: schema } : null}
        busy={state.deciding}
        onApprove={({ editedInput }) => void approve(editedInput)}
        onDeny={(reason) => void deny(reason)}
        onExpire={() => void deny()}
      />
      <ElicitationDialog
        request={elicitation.request}
        busy={elicitation.busy}
        serverErrors={elicitation.serverErrors}
        onAnswer={(a) => void elicitation.answer(a)}
      />
    </div>
  );
}
