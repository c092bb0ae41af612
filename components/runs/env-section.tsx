"use client";

import { AlertOctagon } from "lucide-react";
import { cn } from "@/components/ui/cn";
import { JsonTree } from "./json-tree";
import { FactList, Section } from "./section";
import type { EnvView } from "./types";
import { Tag } from "./verdict-badge";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";

/** Every environment document of the run: key facts first, then the whole document as a tree. */
export function EnvSection({ envs }: { envs: EnvView[] }) {
  if (envs.length === 0) {
    return (
      <Section title="Environment" testId="env-section">
        <p className="rounded-lg border border-dashed border-border p-4 text-sm text-muted" data-testid="env-empty">
          This run recorded no environment (no host_env.json, env.json or environments/*/env.json).
        </p>
      </Section>
    );
  }
  const first = envs[0]?.label ?? "";
  return (
    <Section title="Environment" testId="env-section" note={envs.length > 1 ? `${envs.length} documents` : undefined}>
      <Tabs defaultValue={first} className="rounded-lg border border-border bg-panel">
        <TabsList aria-label="Environment documents" className="flex flex-wrap gap-1 border-b border-border px-2 pt-2">
          {envs.map((e) => (
            <TabsTrigger
              key={e.label}
              value={e.label}
              data-testid="env-tab"
              className={cn(
                "-mb-px flex h-auto items-center gap-1.5 rounded-none rounded-t-md border border-transparent px-2.5 py-1 font-mono data-[state=active]:font-normal",
                "data-[state=active]:border-border data-[state=active]:border-b-[var(--panel)] data-[state=active]:bg-panel data-[state=active]:text-fg",
              )}
            >
              {e.label}
              {e.error ? <AlertOctagon size={12} className="text-denied" aria-label="unreadable" /> : null}
              {e.partial ? <Tag tone="warn">partial</Tag> : null}
            </TabsTrigger>
          ))}
        </TabsList>
        {envs.map((e) => (
          <TabsContent key={e.label} value={e.label} className="space-y-4 p-4" data-testid="env-panel">
            {e.error ? (
              <p role="alert" className="font-mono text-xs break-all text-denied">
                {e.error}
              </p>
            ) : (
              <>
                <div>
                  <h3 className="mb-2 text-xs font-medium tracking-wide text-muted uppercase">Key facts</h3>
                  <FactList facts={e.facts} testId="env-facts" />
                </div>
                {e.missingFields.length > 0 ? (
                  <p className="text-xs text-muted">
                    Not recorded: <span className="font-mono">{e.missingFields.join(", ")}</span>
                  </p>
                ) : null}
                <details open className="group">
                  <summary className="mb-2 cursor-pointer text-xs font-medium tracking-wide text-muted uppercase">All keys</summary>
                  <JsonTree value={e.raw} testId="env-tree" />
                </details>
              </>
            )}
          </TabsContent>
        ))}
      </Tabs>
    </Section>
  );
}
