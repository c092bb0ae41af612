"use client";

import { useEffect, useId, useState } from "react";
import type { CompletionRef } from "@/lib/server/sources/source-actions";
import { sourceApi } from "./source-api";

/** Waits this long after a keystroke before asking the server for completions. */
const DEBOUNCE_MS = 200;

interface CompletionInputProps {
  server: string;
  /** Whether the server offers `completion/complete`; without it this is a plain input. */
  completes: boolean;
  completionRef: CompletionRef;
  name: string;
  label: string;
  required?: boolean;
  description?: string;
  value: string;
  /** The other arguments, sent as the completion's context. */
  context: Record<string, string>;
  onChange: (value: string) => void;
}

/** A prompt argument or template variable, with the server's suggestions in a datalist. */
export function CompletionInput({ server, completes, completionRef, name, label, required, description, value, context, onChange }: CompletionInputProps) {
  const id = useId();
  const [values, setValues] = useState<string[]>([]);
  const contextKey = JSON.stringify(context);
  const refKey = JSON.stringify(completionRef);
  useEffect(() => {
    if (!completes) return;
    let live = true;
    const timer = setTimeout(() => {
      sourceApi
        .complete(server, JSON.parse(refKey) as CompletionRef, { name, value }, JSON.parse(contextKey) as Record<string, string>)
        .then((r) => live && setValues(r.values))
        .catch(() => live && setValues([]));
    }, DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [completes, server, refKey, name, value, contextKey]);
  return (
    <label className="block text-xs">
      <span className="font-mono">
        {label}
        {required ? <span className="text-denied"> *</span> : null}
      </span>
      {description ? <span className="ml-2 text-muted">{description}</span> : null}
      <input
        data-testid={`arg-${name}`}
        list={completes ? `${id}-list` : undefined}
        value={value}
        required={required}
        onChange={(e) => onChange(e.target.value)}
        className="mt-1 block w-full rounded-md border border-border bg-bg px-2 py-1 font-mono text-sm focus:border-accent focus:outline-none"
      />
      {completes ? (
        <datalist id={`${id}-list`} data-testid={`completions-${name}`}>
          {values.map((v) => (
            <option key={v} value={v} />
          ))}
        </datalist>
      ) : null}
    </label>
  );
}
