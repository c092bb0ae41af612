"use client";

import { MessageSquareText } from "lucide-react";
import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "@/components/ui/dialog";
import { Select } from "@/components/ui/select";
import { checkAnswers, defaultAnswers, elicitFields, type ElicitFormField } from "@/lib/mcp/elicit-form";
import type { PendingElicitation } from "@/lib/server/elicitations/pending";
import { Countdown } from "./countdown";

export type ElicitationAnswer = { action: "accept"; content: Record<string, unknown> } | { action: "decline" } | { action: "cancel" };

export interface ElicitationDialogProps {
  request: PendingElicitation | null;
  busy?: boolean;
  /** What the server said about the last answer (a field that does not fit, say). */
  serverErrors?: Record<string, string>;
  /** In a comparison: which column's tool asks. */
  columnLabel?: string;
  onAnswer: (answer: ElicitationAnswer) => void;
}

const INPUT = "mt-1 h-8 w-full rounded-md border border-border bg-panel px-2 text-sm text-fg focus:border-accent focus:outline-none";

/**
 * A tool asks the person for input: a form built from its schema, defaults filled (SEP-1034), enums
 * as selects or checkboxes (SEP-1330). Keyboard: Tab through the fields, Enter submits, Esc cancels.
 */
export function ElicitationDialog({ request, busy, serverErrors, columnLabel, onAnswer }: ElicitationDialogProps) {
  const fields = request ? elicitFields(request.schema) : [];
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [shownId, setShownId] = useState<string | undefined>(undefined);
  const formId = useId();
  const firstRef = useRef<HTMLElement | null>(null);
  if (shownId !== request?.id) {
    setShownId(request?.id);
    setValues(request ? defaultAnswers(elicitFields(request.schema)) : {});
    setErrors({});
  }
  const shownErrors = { ...serverErrors, ...errors };
  const submit = () => {
    const checked = checkAnswers(fields, values);
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    onAnswer({ action: "accept", content: checked.content });
  };

  return (
    <Dialog open={request !== null} onOpenChange={(open) => !open && request && !busy && onAnswer({ action: "cancel" })}>
      <DialogContent
        data-testid="elicitation-dialog"
        className="w-[min(560px,calc(100vw-2rem))] border-pending/60"
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          firstRef.current?.focus();
        }}
      >
        {request ? (
          <form
            id={formId}
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              submit();
            }}
          >
            <div className="flex items-start gap-3">
              <MessageSquareText className="mt-0.5 shrink-0 text-pending" size={20} aria-hidden />
              <div className="min-w-0 flex-1">
                <DialogTitle data-testid="elicitation-message">{request.message}</DialogTitle>
                <DialogDescription className="mt-0.5">
                  {columnLabel ? <span className="mr-1 font-medium text-fg">{columnLabel}:</span> : null}
                  <span className="font-mono">{request.toolName}</span> asks for this; what you send goes to the tool.
                </DialogDescription>
              </div>
              <Countdown until={request.expiresAt} />
            </div>
            <div className="mt-3 max-h-[55vh] space-y-3 overflow-auto">
              {fields.map((field, i) => (
                <FieldInput
                  key={field.name}
                  field={field}
                  value={values[field.name]}
                  error={shownErrors[field.name]}
                  inputRef={i === 0 ? (el) => (firstRef.current = el) : undefined}
                  onChange={(value) => {
                    setValues((v) => ({ ...v, [field.name]: value }));
                    // A field's complaint goes once it is edited; Send checks again.
                    setErrors(({ [field.name]: _fixed, ...rest }) => rest);
                  }}
                />
              ))}
            </div>
            <div className="mt-4 flex flex-wrap items-center justify-end gap-2">
              <Button variant="ghost" data-testid="elicitation-cancel" disabled={busy} onClick={() => onAnswer({ action: "cancel" })}>
                Cancel
              </Button>
              <Button variant="outline" data-testid="elicitation-decline" disabled={busy} onClick={() => onAnswer({ action: "decline" })}>
                Decline
              </Button>
              <Button type="submit" variant="primary" data-testid="elicitation-accept" disabled={busy}>
                Send
              </Button>
            </div>
          </form>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function FieldInput({
  field,
  value,
  error,
  inputRef,
  onChange,
}: {
  field: ElicitFormField;
  value: unknown;
  error?: string;
  inputRef?: (el: HTMLElement | null) => void;
  onChange: (value: unknown) => void;
}) {
  const id = useId();
  const label = (
    <span className="text-xs font-medium text-muted">
      {field.label}
      {field.required ? <span className="text-denied"> *</span> : null}
    </span>
  );
  const help = (
    <>
      {field.description ? <span className="mt-0.5 block text-xs text-muted">{field.description}</span> : null}
      {error ? (
        <span className="mt-0.5 block text-xs text-denied" data-testid={`elicitation-error-${field.name}`}>
          {error}
        </span>
      ) : null}
    </>
  );
  const described = { "aria-invalid": error ? true : undefined, "data-testid": `elicitation-field-${field.name}` };
  if (field.kind === "boolean")
    return (
      <div>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" ref={inputRef} checked={value === true} onChange={(e) => onChange(e.target.checked)} {...described} />
          {label}
        </label>
        {help}
      </div>
    );
  if (field.kind === "choices") {
    const chosen = Array.isArray(value) ? (value as string[]) : [];
    return (
      <fieldset>
        <legend>{label}</legend>
        <div className="mt-1 flex flex-wrap gap-3" {...described}>
          {field.options.map((option, i) => (
            <label key={option.value} className="flex items-center gap-1.5 text-sm">
              <input
                type="checkbox"
                ref={i === 0 ? inputRef : undefined}
                checked={chosen.includes(option.value)}
                onChange={(e) => onChange(e.target.checked ? [...chosen, option.value] : chosen.filter((c) => c !== option.value))}
              />
              {option.label}
            </label>
          ))}
        </div>
        {help}
      </fieldset>
    );
  }
  return (
    <label htmlFor={id} className="block">
      {label}
      {field.kind === "choice" ? (
        <Select
          id={id}
          ref={inputRef}
          className="mt-1 w-full"
          value={typeof value === "string" ? value : ""}
          onChange={(e) => onChange(e.target.value || undefined)}
          {...described}
        >
          <option value="">{field.required ? "Choose…" : "(none)"}</option>
          {field.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </Select>
      ) : (
        <input
          id={id}
          ref={inputRef}
          className={INPUT}
          type={field.kind === "number" || field.kind === "integer" ? "number" : field.format === "email" ? "email" : field.format === "date" ? "date" : "text"}
          step={field.kind === "integer" ? 1 : "any"}
          min={field.minimum}
          max={field.maximum}
          value={typeof value === "string" || typeof value === "number" ? String(value) : ""}
          onChange={(e) =>
            onChange(field.kind === "number" || field.kind === "integer" ? (e.target.value === "" ? undefined : Number(e.target.value)) : e.target.value)
          }
          {...described}
        />
      )}
      {help}
    </label>
  );
}
