"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "@/components/ui/dialog";
import { Select } from "@/components/ui/select";
import { fetchJson } from "@/lib/client/fetch-json";
import type { CaseFile, SaveCaseResult } from "@/lib/server/evals/save-case";

const NEW_FILE = "\u0000new";
const SUFFIX = ".eval.yaml";

export interface SaveCaseDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The case as YAML, prefilled from the turn; the person edits it. */
  draft: string;
}

/** `name` → `name.eval.yaml`, so the person may leave the suffix off. */
const withSuffix = (name: string) => (name.trim().endsWith(SUFFIX) ? name.trim() : `${name.trim()}${SUFFIX}`);

/**
 * "Save as eval case": the case as YAML (or JSON) to edit, and the suite under the source root's
 * evals/ it goes into — one there, or a new one by name. The server checks it against the suite
 * schema; its reasons are shown here, one a line, and nothing is written until it passes.
 */
export function SaveCaseDialog({ open, onOpenChange, draft }: SaveCaseDialogProps) {
  const [text, setText] = useState(draft);
  const [files, setFiles] = useState<CaseFile[] | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [choice, setChoice] = useState(NEW_FILE);
  const [newName, setNewName] = useState("saved-cases");
  const [problem, setProblem] = useState<string | null>(null);
  const [checked, setChecked] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const router = useRouter();

  useEffect(() => {
    if (!open) return;
    let live = true;
    fetchJson<{ files: CaseFile[] }>("/api/evals/cases")
      .then(({ files: found }) => {
        if (!live) return;
        setFiles(found);
        const usable = found.find((f) => !f.error);
        if (usable) setChoice(usable.file);
      })
      .catch((error: Error) => live && setListError(error.message));
    return () => {
      live = false;
    };
  }, [open]);

  const file = choice === NEW_FILE ? withSuffix(newName) : choice;
  const send = async (dryRun: boolean) => {
    setBusy(true);
    setProblem(null);
    setChecked(null);
    try {
      const result = await fetchJson<SaveCaseResult>("/api/evals/cases", { method: "POST", json: { file, text, dryRun } });
      if (dryRun) setChecked(`The case "${result.caseName}" is valid; evals/${result.file} would have ${result.cases} case${result.cases === 1 ? "" : "s"}.`);
      else {
        toast.success(`Saved "${result.caseName}" into evals/${result.file} (${result.cases} case${result.cases === 1 ? "" : "s"})`, {
          action: { label: "Open evals", onClick: () => router.push("/evals") },
        });
        onOpenChange(false);
      }
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="save-case-dialog" className="w-[min(640px,calc(100vw-2rem))]">
        <DialogTitle>Save as eval case</DialogTitle>
        <DialogDescription>
          The prompt and the calls the model made, as a case whose expected calls you can edit. It goes into a suite under the source root&apos;s{" "}
          <code className="font-mono">evals/</code>, listed on{" "}
          <Link href="/evals" className="text-accent hover:underline">
            Evals
          </Link>
          .
        </DialogDescription>
        <form
          className="mt-4 flex flex-col gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            void send(false);
          }}
        >
          <label className="flex flex-col gap-1 text-xs font-medium text-muted">
            Case (YAML or JSON)
            <textarea
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                setChecked(null);
              }}
              data-testid="save-case-text"
              rows={12}
              spellCheck={false}
              aria-invalid={problem !== null}
              aria-describedby={problem ? "save-case-problem" : undefined}
              className="rounded-md border border-border bg-panel px-2 py-1.5 font-mono text-xs font-normal text-fg focus:border-accent focus:outline-none aria-invalid:border-denied"
            />
          </label>
          <div className="flex flex-wrap items-end gap-2">
            <label className="flex min-w-0 flex-1 flex-col gap-1 text-xs font-medium text-muted">
              Suite
              <Select size="sm" value={choice} onChange={(e) => setChoice(e.target.value)} data-testid="save-case-file" disabled={files === null && !listError}>
                {(files ?? []).map((f) => (
                  <option key={f.file} value={f.file} disabled={f.error !== null}>
                    evals/{f.file} {f.error ? "(does not load)" : `(${f.cases} case${f.cases === 1 ? "" : "s"})`}
                  </option>
                ))}
                <option value={NEW_FILE}>New suite file…</option>
              </Select>
            </label>
            {choice === NEW_FILE ? (
              <label className="flex min-w-0 flex-1 flex-col gap-1 text-xs font-medium text-muted">
                New file in evals/
                <input
                  value={newName}
                  onChange={(e) => setNewName(e.target.value)}
                  data-testid="save-case-new-name"
                  className="h-7 rounded-md border border-border bg-panel px-2 font-mono text-xs font-normal text-fg focus:border-accent focus:outline-none"
                  placeholder={`my-cases${SUFFIX}`}
                />
              </label>
            ) : null}
          </div>
          {files === null && !listError ? <p className="text-xs text-muted">Looking for suites in evals/…</p> : null}
          {listError ? (
            <p role="alert" className="text-xs text-denied">
              Could not list the suites: {listError}
            </p>
          ) : null}
          {problem ? (
            <pre
              id="save-case-problem"
              role="alert"
              data-testid="save-case-problem"
              className="max-h-40 overflow-auto rounded-md border border-denied/50 bg-denied/5 px-3 py-2 text-xs whitespace-pre-wrap text-denied"
            >
              {problem}
            </pre>
          ) : null}
          {checked ? (
            <p role="status" data-testid="save-case-checked" className="text-xs text-done">
              {checked}
            </p>
          ) : null}
          <div className="flex justify-end gap-2">
            <Button size="sm" variant="ghost" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button size="sm" disabled={busy} onClick={() => void send(true)} data-testid="save-case-check">
              Check
            </Button>
            <Button size="sm" variant="primary" type="submit" disabled={busy || !text.trim()} data-testid="save-case-save">
              {busy ? "Saving…" : "Save case"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
