"use client";

import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { ModelExample } from "@/lib/settings/model-examples";

/** The chat's "Add a model…" leads here (/settings#add-a-model). */
export const ADD_MODEL_ANCHOR = "add-a-model";

function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      size="sm"
      aria-label={`Copy the ${label} example`}
      data-testid="copy-model-example"
      onClick={() =>
        void navigator.clipboard.writeText(text).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        })
      }
      className="gap-1 px-2"
    >
      {copied ? <Check size={13} aria-hidden /> : <Copy size={13} aria-hidden />}
      {copied ? "Copied" : "Copy"}
    </Button>
  );
}

export function AddModel({ examples }: { examples: readonly ModelExample[] }) {
  return (
    <section id={ADD_MODEL_ANCHOR} data-testid="add-model" className="scroll-mt-4 space-y-3">
      <div>
        <h2 className="text-sm font-semibold">Add a model</h2>
        <p className="mt-1 max-w-3xl text-sm text-muted">
          Models are <code className="font-mono">llms</code> entries in <code className="font-mono">./toolroom.yaml</code> (next to package.json, or the file
          given with <code className="font-mono">--config</code>). Paste one of these, restart <code className="font-mono">npm start</code>, and the model
          appears in the chat&apos;s model picker. Keep <code className="font-mono">offline</code> unless you also set{" "}
          <code className="font-mono">chat.llm</code>.
        </p>
      </div>
      <div className="grid max-w-5xl gap-3">
        {examples.map((e) => (
          <div key={e.id} className="flex min-w-0 flex-col rounded-lg border border-border bg-panel" data-testid={`model-example-${e.id}`}>
            <div className="flex items-center gap-2 border-b border-border px-3 py-2">
              <span className="min-w-0 flex-1 truncate text-sm font-medium">{e.title}</span>
              <CopyButton text={e.yaml} label={e.title} />
            </div>
            <p className="px-3 pt-2 text-xs text-muted">{e.note}</p>
            <pre className="m-3 mt-2 flex-1 overflow-x-auto rounded bg-subtle p-2 font-mono text-xs">{e.yaml}</pre>
          </div>
        ))}
      </div>
    </section>
  );
}
