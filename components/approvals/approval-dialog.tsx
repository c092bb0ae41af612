"use client";

import { RoleGate } from "@/components/auth/role-gate";
import { Pencil, ShieldAlert } from "lucide-react";
import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "@/components/ui/dialog";
import type { Schema } from "@/components/tools/schema-rows";
import { ArgumentsEditor, checkEdit, type EditState } from "./arguments-editor";
import { Countdown } from "./countdown";
import { RuleForm } from "./rule-form";

export interface ApprovalRequest {
  approvalId: string;
  toolName: string;
  sourcePackage: string;
  readonly: boolean;
  summary: string;
  input: unknown;
  /** ISO time after which the server treats the request as timed out. */
  expiresAt?: string;
  /** Position in the queue when several calls wait, e.g. "1 of 2". */
  queueLabel?: string;
  /** The tool's input JSON Schema: edited arguments are checked against it as they are typed. */
  inputSchema?: Schema;
}

export interface ApprovalDialogProps {
  request: ApprovalRequest | null;
  /** Offer "approve for this chat" (chat only; try-it approves once). */
  allowGrant?: boolean;
  busy?: boolean;
  /** `editedInput`: the arguments as the person changed them; the server checks them and the call runs with them. */
  onApprove: (options: { grant: boolean; editedInput?: unknown }) => void;
  onDeny: (reason: string | undefined) => void;
  onExpire?: () => void;
  /** Which chat of several asks (a comparison's column), named above the question. */
  columnLabel?: string;
  /** The chat a "this chat" rule is saved for (chat only). */
  chatId?: string;
  /** Several calls of one step wait: answer them all at once (the server takes them only together). */
  onApproveAll?: () => void;
  onDenyAll?: () => void;
}

/**
 * The human-in-the-loop dialog. Keyboard: focus lands on the dialog (not on Approve, so a stray
 * Enter approves nothing); Enter approves only once focus is on Approve; Esc denies with no reason.
 */
export function ApprovalDialog({ request, allowGrant, busy, onApprove, onDeny, onExpire, columnLabel, chatId, onApproveAll, onDenyAll }: ApprovalDialogProps) {
  const [reason, setReason] = useState("");
  const [grant, setGrant] = useState(false);
  const [editText, setEditText] = useState<string | null>(null);
  const [edit, setEdit] = useState<EditState>({ ok: true, value: undefined });
  const [ruleDraft, setRuleDraft] = useState<"allow" | "deny" | null>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const reasonId = useId();
  // A new request starts with an empty reason and no grant (state adjusted while rendering, as React advises).
  const [shownId, setShownId] = useState(request?.approvalId);
  if (shownId !== request?.approvalId) {
    setShownId(request?.approvalId);
    setReason("");
    setGrant(false);
    setEditText(null);
    setRuleDraft(null);
  }
  const editing = editText !== null;
  const changed = editing && edit.ok && JSON.stringify(edit.value) !== JSON.stringify(request?.input);
  const approve = (options: { grant: boolean }) => onApprove({ ...options, ...(changed && edit.ok ? { editedInput: edit.value } : {}) });

  return (
    <Dialog open={request !== null} onOpenChange={(open) => !open && request && !busy && onDeny(undefined)}>
      <DialogContent
        ref={contentRef}
        data-testid="approval-dialog"
        tabIndex={-1}
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          contentRef.current?.focus();
        }}
        className="w-[min(560px,calc(100vw-2rem))] border-pending/60"
      >
        {request ? (
          <>
            <div className="flex items-start gap-3">
              <ShieldAlert className="mt-0.5 shrink-0 text-pending" size={20} aria-hidden />
              <div className="min-w-0 flex-1">
                {columnLabel ? (
                  <p className="mb-0.5 font-mono text-xs text-accent" data-testid="approval-column">
                    {columnLabel}
                  </p>
                ) : null}
                <DialogTitle>
                  Run{" "}
                  <span className="font-mono" data-testid="approval-tool">
                    {request.toolName}
                  </span>
                  ?
                </DialogTitle>
                <DialogDescription className="mt-0.5">
                  <span className="font-mono">[{request.sourcePackage}]</span> · {request.readonly ? "read-only" : "changes state"}
                  {request.queueLabel ? ` · ${request.queueLabel}` : ""}
                </DialogDescription>
              </div>
              {request.expiresAt ? <Countdown until={request.expiresAt} onExpire={onExpire} /> : null}
            </div>
            <p className="mt-3 text-sm">{request.summary}</p>
            <div className="mt-3">
              <div className="mb-1 flex items-center text-xs font-medium text-muted">
                Arguments
                {changed ? (
                  <span data-testid="approval-edited" className="ml-2 rounded border border-accent/40 px-1 text-accent">
                    edited by you
                  </span>
                ) : null}
                {editing ? null : (
                  <Button
                    size="sm"
                    variant="ghost"
                    className="ml-auto h-6"
                    data-testid="approval-edit"
                    onClick={() => {
                      const text = JSON.stringify(request.input ?? {}, null, 2);
                      setEditText(text);
                      setEdit(checkEdit(text, request.inputSchema));
                    }}
                  >
                    <Pencil size={12} aria-hidden /> Edit
                  </Button>
                )}
              </div>
              {editing ? (
                <ArgumentsEditor
                  text={editText}
                  state={edit}
                  onChange={(text) => {
                    setEditText(text);
                    setEdit(checkEdit(text, request.inputSchema));
                  }}
                />
              ) : (
                <pre data-testid="approval-args" className="max-h-56 overflow-auto rounded-md bg-subtle p-2.5 font-mono text-xs leading-5">
                  {JSON.stringify(request.input, null, 2)}
                </pre>
              )}
            </div>
            <label className="mt-3 block text-xs font-medium text-muted">
              Reason if you deny <span id={reasonId}>(the model receives it)</span>
              <input
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                data-testid="approval-reason"
                aria-describedby={reasonId}
                className="mt-1 h-8 w-full rounded-md border border-border bg-panel px-2 text-sm text-fg focus:border-accent focus:outline-none"
                placeholder="optional"
              />
            </label>
            {allowGrant ? (
              <label className="mt-3 flex items-center gap-2 text-sm">
                <input type="checkbox" checked={grant} onChange={(e) => setGrant(e.target.checked)} data-testid="approval-grant" />
                Approve <span className="font-mono">{request.toolName}</span> for the rest of this chat
              </label>
            ) : null}
            {ruleDraft ? (
              <RuleForm
                draft={{ decision: ruleDraft, toolName: request.toolName, input: request.input, chatId }}
                onCancel={() => setRuleDraft(null)}
                onSaved={() => {
                  setRuleDraft(null);
                  if (ruleDraft === "allow") approve({ grant: false });
                  else onDeny(reason.trim() || undefined);
                }}
              />
            ) : null}
            <div className="mt-4 flex flex-wrap items-center justify-end gap-2">
              {onApproveAll && onDenyAll ? (
                <span className="mr-auto flex gap-2">
                  <Button size="sm" variant="danger" disabled={busy} data-testid="approval-deny-all" onClick={onDenyAll}>
                    Deny all
                  </Button>
                  <Button size="sm" disabled={busy} data-testid="approval-approve-all" onClick={onApproveAll}>
                    Approve all
                  </Button>
                </span>
              ) : null}
              <Button variant="danger" disabled={busy} data-testid="approval-deny" onClick={() => onDeny(reason.trim() || undefined)}>
                Deny
              </Button>
              {/* Rules decide for everyone: an admin's to make (the server refuses anyone else's). */}
              <RoleGate role="admin">
                <Button variant="ghost" disabled={busy || ruleDraft !== null} data-testid="approval-never" onClick={() => setRuleDraft("deny")}>
                  Never…
                </Button>
                <Button variant="ghost" disabled={busy || ruleDraft !== null || changed} data-testid="approval-always" onClick={() => setRuleDraft("allow")}>
                  Always…
                </Button>
              </RoleGate>
              <Button variant="primary" disabled={busy || (editing && !edit.ok)} data-testid="approval-approve" onClick={() => approve({ grant })}>
                {grant ? "Approve for this chat" : changed ? "Approve edited" : "Approve once"}
              </Button>
            </div>
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
