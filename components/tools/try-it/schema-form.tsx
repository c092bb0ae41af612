"use client";

import { Plus, X } from "lucide-react";
import { useId, useState } from "react";
import { cn } from "@/components/ui/cn";
import { initialValue, withKey, type FieldNode } from "./form-model";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/select";

const INPUT = "w-full rounded-md border border-border bg-panel px-2 text-sm text-fg focus:border-accent focus:outline-none disabled:opacity-60";

interface FieldProps {
  node: FieldNode;
  path: string;
  value: unknown;
  onChange: (value: unknown) => void;
  issues: Map<string, string>;
  disabled?: boolean;
  /** Array items are labelled by position, not by key. */
  label?: string;
}

/** The fields of an object input; each edits its own key of `value`. */
export function SchemaForm({
  fields,
  value,
  onChange,
  issues,
  disabled,
}: {
  fields: FieldNode[];
  value: Record<string, unknown>;
  onChange: (v: Record<string, unknown>) => void;
  issues: Map<string, string>;
  disabled?: boolean;
}) {
  if (fields.length === 0) return <p className="text-sm text-muted">This tool takes no arguments.</p>;
  return (
    <div className="space-y-3" data-testid="try-it-form">
      {fields.map((f) => (
        <Field
          key={f.key}
          node={f}
          path={f.key}
          value={value[f.key]}
          onChange={(v) => onChange(withKey(value, f.key, v))}
          issues={issues}
          disabled={disabled}
        />
      ))}
    </div>
  );
}

function Field(props: FieldProps) {
  const { node, path, issues, label } = props;
  const id = useId();
  const issue = issues.get(path);
  const issueId = `${id}-issue`;
  const hint = [node.description, node.defaultValue !== undefined ? `default ${JSON.stringify(node.defaultValue)}` : undefined].filter(Boolean).join(" · ");
  if (node.spec.kind === "object") {
    return (
      <fieldset className="rounded-md border border-border p-3" data-field={path} aria-describedby={issue ? issueId : undefined}>
        <legend className="px-1 font-mono text-xs">
          {label ?? node.key}
          {node.required ? <span className="text-denied"> *</span> : null}
        </legend>
        {hint ? <p className="mb-2 text-xs text-muted">{hint}</p> : null}
        <div className="space-y-3">
          {node.spec.fields.map((f) => (
            <Field
              key={f.key}
              node={f}
              path={`${path}.${f.key}`}
              value={isObj(props.value) ? props.value[f.key] : undefined}
              onChange={(v) => props.onChange(withKey(props.value, f.key, v))}
              issues={issues}
              disabled={props.disabled}
            />
          ))}
        </div>
        {issue ? <FieldIssue id={issueId} text={issue} /> : null}
      </fieldset>
    );
  }
  return (
    <div data-field={path}>
      <label htmlFor={id} className="mb-1 flex items-baseline gap-2">
        <span className="font-mono text-xs font-medium">
          {label ?? node.key}
          {node.required ? <span className="text-denied"> *</span> : null}
        </span>
        {hint ? (
          <span className="min-w-0 truncate text-xs text-muted" title={hint}>
            {hint}
          </span>
        ) : null}
      </label>
      <Control {...props} id={id} invalid={issue !== undefined} describedBy={issue ? issueId : undefined} />
      {issue ? <FieldIssue id={issueId} text={issue} /> : null}
    </div>
  );
}

function FieldIssue({ id, text }: { id: string; text: string }) {
  return (
    <p id={id} className="mt-1 text-xs text-denied" data-testid="field-issue">
      {text}
    </p>
  );
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function Control({
  node,
  path,
  value,
  onChange,
  issues,
  disabled,
  id,
  invalid,
  describedBy,
}: FieldProps & { id: string; invalid: boolean; describedBy?: string }) {
  const spec = node.spec;
  const cls = cn(INPUT, invalid && "border-denied");
  // Every control says whether it is wrong and points at the text that says why.
  const aria = { "aria-invalid": invalid || undefined, "aria-describedby": describedBy };
  switch (spec.kind) {
    case "string":
      return spec.multiline ? (
        <textarea
          id={id}
          {...aria}
          rows={3}
          className={cn(cls, "py-1.5 font-mono text-xs")}
          value={typeof value === "string" ? value : ""}
          disabled={disabled}
          maxLength={spec.maxLength}
          onChange={(e) => onChange(e.target.value === "" ? undefined : e.target.value)}
        />
      ) : (
        <input
          id={id}
          {...aria}
          className={cn(cls, "h-8 font-mono text-xs")}
          value={typeof value === "string" ? value : ""}
          disabled={disabled}
          maxLength={spec.maxLength}
          placeholder={spec.pattern ? `/${spec.pattern}/` : spec.format}
          onChange={(e) => onChange(e.target.value === "" ? undefined : e.target.value)}
        />
      );
    case "number":
      return (
        <input
          id={id}
          {...aria}
          type="number"
          className={cn(cls, "h-8 w-40 font-mono text-xs tabular")}
          value={typeof value === "number" ? value : ""}
          min={spec.min}
          max={spec.max}
          step={spec.step ?? "any"}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value === "" ? undefined : Number(e.target.value))}
        />
      );
    case "boolean":
      return node.required ? (
        <input
          id={id}
          {...aria}
          type="checkbox"
          className="size-4 accent-(--color-accent)"
          checked={value === true}
          disabled={disabled}
          onChange={(e) => onChange(e.target.checked)}
        />
      ) : (
        <Select
          id={id}
          {...aria}
          className={cn(cls, "w-32")}
          value={value === true ? "true" : value === false ? "false" : ""}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value === "" ? undefined : e.target.value === "true")}
        >
          <option value="">— unset —</option>
          <option value="true">true</option>
          <option value="false">false</option>
        </Select>
      );
    case "enum": {
      const index = spec.options.findIndex((o) => JSON.stringify(o) === JSON.stringify(value));
      return (
        <Select
          id={id}
          {...aria}
          className={cn(cls, "w-auto min-w-40 font-mono text-xs")}
          value={index < 0 ? "" : String(index)}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value === "" ? undefined : spec.options[Number(e.target.value)])}
        >
          <option value="">{node.required ? "— choose —" : "— unset —"}</option>
          {spec.options.map((o, i) => (
            <option key={i} value={i}>
              {typeof o === "string" ? o : JSON.stringify(o)}
            </option>
          ))}
        </Select>
      );
    }
    case "array": {
      const items: unknown[] = Array.isArray(value) ? (value as unknown[]) : [];
      const canAdd = spec.maxItems === undefined || items.length < spec.maxItems;
      return (
        <div className="space-y-2 border-l-2 border-border pl-3">
          {items.map((item, i) => (
            <div key={i} className="flex items-start gap-2">
              <div className="min-w-0 flex-1">
                <Field
                  node={spec.item}
                  path={`${path}.${i}`}
                  label={`[${i}]`}
                  value={item}
                  issues={issues}
                  disabled={disabled}
                  onChange={(v) => onChange(items.map((x, j) => (j === i ? v : x)))}
                />
              </div>
              <Button
                variant="ghost"
                size="icon"
                aria-label={`Remove item ${i}`}
                disabled={disabled}
                onClick={() => onChange(items.filter((_, j) => j !== i))}
                className="mt-5 rounded"
              >
                <X size={14} aria-hidden />
              </Button>
            </div>
          ))}
          <Button
            size="sm"
            disabled={disabled || !canAdd}
            onClick={() => onChange([...items, initialValue({ ...spec.item, required: true })])}
            className="gap-1 bg-transparent"
          >
            <Plus size={12} aria-hidden /> Add item
          </Button>
        </div>
      );
    }
    case "json":
    case "object":
      return <JsonControl id={id} value={value} onChange={onChange} disabled={disabled} className={cls} invalid={invalid} describedBy={describedBy} />;
  }
}

/** A free-form JSON value: keeps the text while it does not parse yet. */
function JsonControl({
  id,
  value,
  onChange,
  disabled,
  className,
  invalid,
  describedBy,
}: {
  id: string;
  value: unknown;
  onChange: (v: unknown) => void;
  disabled?: boolean;
  className: string;
  invalid: boolean;
  describedBy?: string;
}) {
  const errorId = `${id}-json-error`;
  const [text, setText] = useState(() => (value === undefined ? "" : JSON.stringify(value)));
  const [error, setError] = useState<string | null>(null);
  // Follow outside changes (run again, raw tab) unless the text already means the same value;
  // state adjusted while rendering, as React advises, not in an effect.
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    setText((t) => {
      try {
        if (t.trim() !== "" && JSON.stringify(JSON.parse(t)) === JSON.stringify(value)) return t;
      } catch {
        /* keep going */
      }
      return value === undefined ? (t.trim() === "" ? t : "") : JSON.stringify(value);
    });
  }
  return (
    <>
      <textarea
        id={id}
        aria-invalid={invalid || error !== null || undefined}
        aria-describedby={[error !== null ? errorId : undefined, describedBy].filter(Boolean).join(" ") || undefined}
        rows={2}
        className={cn(className, "py-1.5 font-mono text-xs")}
        value={text}
        disabled={disabled}
        placeholder="JSON value"
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value.trim() === "") {
            setError(null);
            onChange(undefined);
            return;
          }
          try {
            onChange(JSON.parse(e.target.value));
            setError(null);
          } catch (err) {
            setError((err as Error).message);
          }
        }}
      />
      {error ? (
        <p id={errorId} className="mt-1 text-xs text-denied">
          Not JSON yet: {error}
        </p>
      ) : null}
    </>
  );
}
