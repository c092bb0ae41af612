"use client";

import type { Prompt } from "@modelcontextprotocol/sdk/types.js";
import { useState } from "react";
import { toast } from "sonner";
import { cn } from "@/components/ui/cn";
import type { Section } from "@/lib/server/sources/sources-view";
import { ChatTargetButtons } from "./chat-target";
import { CompletionInput } from "./completion-input";
import { sourceApi } from "./source-api";
import { SectionError } from "./section-error";

/** Pick a prompt, fill its arguments (with completion), and its text lands in a chat's composer. */
export function PromptsTab({ server, prompts, completes }: { server: string; prompts: Section<Prompt>; completes: boolean }) {
  const [selected, setSelected] = useState<string | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  if (!prompts.ok) return <SectionError error={prompts.error} />;
  if (prompts.items.length === 0) return <p className="text-sm text-muted">This server offers no prompts.</p>;
  const prompt = prompts.items.find((p) => p.name === selected);
  const missing = prompt?.arguments?.filter((a) => a.required && !values[a.name]).map((a) => a.name) ?? [];
  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(16rem,22rem)_1fr]">
      <ul className="divide-y divide-border self-start rounded-md border border-border" data-testid="prompt-list">
        {prompts.items.map((p) => (
          <li key={p.name}>
            <button
              type="button"
              data-testid="prompt-row"
              data-prompt={p.name}
              aria-current={selected === p.name || undefined}
              onClick={() => {
                setSelected(p.name);
                setValues({});
              }}
              className={cn("block w-full px-2 py-1.5 text-left hover:bg-subtle", selected === p.name && "bg-accent-soft")}
            >
              <span className="block font-mono text-sm">{p.name}</span>
              {p.description ? <span className="block truncate text-xs text-muted">{p.description}</span> : null}
            </button>
          </li>
        ))}
      </ul>
      {prompt ? (
        <form className="space-y-3" data-testid="prompt-form" onSubmit={(e) => e.preventDefault()}>
          <h3 className="font-mono text-sm">{prompt.title ?? prompt.name}</h3>
          {prompt.description ? <p className="text-sm text-muted">{prompt.description}</p> : null}
          {(prompt.arguments ?? []).map((a) => (
            <CompletionInput
              key={a.name}
              server={server}
              completes={completes}
              completionRef={{ type: "ref/prompt", name: prompt.name }}
              name={a.name}
              label={a.name}
              required={a.required}
              description={a.description}
              value={values[a.name] ?? ""}
              context={values}
              onChange={(value) => setValues((old) => ({ ...old, [a.name]: value }))}
            />
          ))}
          {missing.length ? <p className="text-xs text-muted">Required: {missing.join(", ")}</p> : null}
          <ChatTargetButtons
            verb="insert"
            disabled={missing.length > 0}
            prepare={async () => {
              try {
                const args = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ""));
                return { text: (await sourceApi.prompt(server, prompt.name, args)).text };
              } catch (error) {
                toast.error((error as Error).message);
                return null;
              }
            }}
          />
        </form>
      ) : (
        <p className="rounded-md border border-dashed border-border p-6 text-center text-sm text-muted">Pick a prompt to fill its arguments.</p>
      )}
    </div>
  );
}
