"use client";

import type { ReactNode } from "react";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";

/** Two or more server-rendered views of one thing (table / JSON), switchable by keyboard. */
export function ViewTabs({ label, tabs, actions }: { label: string; tabs: { id: string; label: string; content: ReactNode }[]; actions?: ReactNode }) {
  return (
    <Tabs defaultValue={tabs[0]?.id}>
      <div className="mb-2 flex items-center gap-2">
        <TabsList aria-label={label}>
          {tabs.map((t) => (
            <TabsTrigger key={t.id} value={t.id} data-testid={`tab-${t.id}`}>
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {actions ? <div className="ml-auto">{actions}</div> : null}
      </div>
      {tabs.map((t) => (
        <TabsContent key={t.id} value={t.id}>
          {t.content}
        </TabsContent>
      ))}
    </Tabs>
  );
}
