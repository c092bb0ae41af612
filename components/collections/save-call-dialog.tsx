"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "@/components/ui/dialog";
import { Select } from "@/components/ui/select";
import { fetchJson } from "@/lib/client/fetch-json";
import type { CollectionFile, SaveCallResult } from "@/lib/server/collections/save-call";

const NEW_FILE = "\u0000new";
const SUFFIX = ".calls.yaml";

export interface SaveCallDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The call as YAML: the current input and an expectation drafted from the result. */
  draft: string;
  /** The new file's default name. */
  suggestedFile: string;
}

/** `name` → `name.calls.yaml`, so the person may leave the suffix off. */
const withSuffix = (name: string) => (name.trim().endsWith(SUFFIX) ? name.trim() : `${name.trim()}${SUFFIX}`);

/**
 * "Save to collection": the call as YAML to edit, and the collection in the source root it goes
 * into — one there, or a new file by path. The server checks it against the collection schema and
 * writes only inside the source root; its reasons are shown here, one a line.
 */
export function SaveCallDialog({ open, onOpenChange, draft, suggestedFile }: SaveCallDialogProps) {
  const [text, setText] = useState(draft);
  const [files, setFiles] = useState<CollectionFile[] | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [choice, setChoice] = useState(NEW_FILE);
  const [newName, setNewName] = useState(suggestedFile);
  const [problem, setProblem] = useState<string | null>(null);
  const [checked, setChecked] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const router = useRouter();

  useEffect(() => {
    if (!open) return;
    let live = true;
    fetchJson<{ files: CollectionFile[] }>("/api/collections/calls")
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
      const result = await fetchJson<SaveCallResult>("/api/collections/calls", { method: "POST", json: { file, text, dryRun } });
      const count = `${result.calls} call${result.calls === 1 ? "" : "s"}`;
      if (dryRun) setChecked(`The call "${result.callName}" is valid; ${result.file} would have ${count}.`);
      else {
        toast.success(`Saved "${result.callName}" into ${result.file} (${count})`, {
          action: { label: "Open collections", onClick: () => router.push("/collections") },
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
      <DialogContent data-testid="save-call-dialog" className="w-[min(640px,calc(100vw-2rem))]">
        <DialogTitle>Save to collection</DialogTitle>
        <DialogDescription>
          This call with its input, and what its result must be (drafted from the result: edit it). It goes into a{" "}
          <code className="font-mono">*.calls.yaml</code> in the source root, listed on{" "}
          <Link href="/collections" className="text-accent hover:underline">
            Collections
          </Link>{" "}
          and run by <code className="font-mono">toolroom collection run</code>.
        </DialogDescription>
        <form
          className="mt-4 flex flex-col gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            void send(false);
          }}
        >
          <label className="flex flex-col gap-1 text-xs font-medium text-muted">
            Call (YAML or JSON)
            <textarea
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                setChecked(null);
              }}
              data-testid="save-call-text"
              rows={12}
              spellCheck={false}
              aria-invalid={problem !== null}
              aria-describedby={problem ? "save-call-problem" : undefined}
              className="rounded-md border border-border bg-panel px-2 py-1.5 font-mono text-xs font-normal text-fg focus:border-accent focus:outline-none aria-invalid:border-denied"
            />
          </label>
          <div className="flex flex-wrap items-end gap-2">
            <label className="flex min-w-0 flex-1 flex-col gap-1 text-xs font-medium text-muted">
              Collection
              <Select size="sm" value={choice} onChange={(e) => setChoice(e.target.value)} data-testid="save-call-file" disabled={files === null && !listError}>
                {(files ?? []).map((f) => (
                  <option key={f.file} value={f.file} disabled={f.error !== null}>
                    {f.file} {f.error ? "(does not load)" : `(${f.calls} call${f.calls === 1 ? "" : "s"})`}
                  </option>
                ))}
                <option value={NEW_FILE}>New collection file…</option>
              </Select>
            </label>
            {choice === NEW_FILE ? (
              <label className="flex min-w-0 flex-1 flex-col gap-1 text-xs font-medium text-muted">
                New file, in the source root
                <input
                  value={newName}
                  onChange={(e) => setNewName(e.target.value)}
                  data-testid="save-call-new-name"
                  className="h-7 rounded-md border border-border bg-panel px-2 font-mono text-xs font-normal text-fg focus:border-accent focus:outline-none"
                  placeholder={`collections/my-tool${SUFFIX}`}
                />
              </label>
            ) : null}
          </div>
          {files === null && !listError ? <p className="text-xs text-muted">Looking for collections in the source root…</p> : null}
          {listError ? (
            <p role="alert" className="text-xs text-denied">
              Could not list the collections: {listError}
            </p>
          ) : null}
          {problem ? (
            <pre
              id="save-call-problem"
              role="alert"
              data-testid="save-call-problem"
              className="max-h-40 overflow-auto rounded-md border border-denied/50 bg-denied/5 px-3 py-2 text-xs whitespace-pre-wrap text-denied"
            >
              {problem}
            </pre>
          ) : null}
          {checked ? (
            <p role="status" data-testid="save-call-checked" className="text-xs text-done">
              {checked}
            </p>
          ) : null}
          <div className="flex justify-end gap-2">
            <Button size="sm" variant="ghost" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button size="sm" disabled={busy} onClick={() => void send(true)} data-testid="save-call-check">
              Check
            </Button>
            <Button size="sm" variant="primary" type="submit" disabled={busy || !text.trim()} data-testid="save-call-save">
              {busy ? "Saving…" : "Save call"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
