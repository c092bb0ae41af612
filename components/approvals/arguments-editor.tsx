"use client";

import { useId } from "react";
import { validateAgainst } from "@/components/tools/try-it/validate";
import type { Schema } from "@/components/tools/schema-rows";

/** What the text box holds: the parsed value when it is valid for the tool, else why not. */
export type EditState = { ok: true; value: unknown } | { ok: false; error: string };

/** JSON text checked as it is typed: it must parse, and fit the tool's input schema (the server checks again). */
export function checkEdit(text: string, schema: Schema | undefined): EditState {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `not JSON: ${(error as Error).message}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, error: "the arguments must be a JSON object" };
  const issues = schema ? validateAgainst(schema, value) : [];
  if (issues.length) return { ok: false, error: issues.map((i) => `${i.path || "input"}: ${i.message}`).join("; ") };
  return { ok: true, value };
}

/** The call's arguments as editable JSON, with the live verdict under it. */
export function ArgumentsEditor({ text, state, onChange }: { text: string; state: EditState; onChange: (text: string) => void }) {
  const errorId = useId();
  return (
    <div>
      <textarea
        value={text}
        onChange={(e) => onChange(e.target.value)}
        data-testid="approval-args-editor"
        aria-label="Arguments (JSON)"
        aria-invalid={!state.ok}
        aria-describedby={errorId}
        spellCheck={false}
        rows={Math.min(12, Math.max(4, text.split("\n").length))}
        className="w-full rounded-md border border-border bg-panel p-2.5 font-mono text-xs leading-5 text-fg focus:border-accent focus:outline-none aria-invalid:border-denied"
      />
      <p id={errorId} data-testid="approval-args-status" className={state.ok ? "text-xs text-done" : "text-xs text-denied"}>
        {state.ok ? "valid for this tool" : state.error}
      </p>
    </div>
  );
}
