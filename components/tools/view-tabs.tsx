"use client";

import * as Tabs from "@radix-ui/react-tabs";
import type { ReactNode } from "react";

const TAB = "h-7 rounded px-2.5 text-xs text-muted data-[state=active]:bg-subtle data-[state=active]:font-medium data-[state=active]:text-fg";

/** Two or more server-rendered views of one thing (table / JSON), switchable by keyboard. */
export function ViewTabs({ label, tabs, actions }: { label: string; tabs: { id: string; label: string; content: ReactNode }[]; actions?: ReactNode }) {
  return (
    <Tabs.Root defaultValue={tabs[0]?.id}>
      <div className="mb-2 flex items-center gap-2">
        <Tabs.List className="flex gap-1" aria-label={label}>
          {tabs.map((t) => (
            <Tabs.Trigger key={t.id} value={t.id} className={TAB} data-testid={`tab-${t.id}`}>
              {t.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {actions ? <div className="ml-auto">{actions}</div> : null}
      </div>
      {tabs.map((t) => (
        <Tabs.Content key={t.id} value={t.id}>
          {t.content}
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
