"use client";

import { FolderOpen } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";

/** The `?root=` override: another folder to browse this session, without editing settings. */
export function RootForm({ root, override }: { root: string; override: string | null }) {
  const router = useRouter();
  const [value, setValue] = useState(override ?? "");
  return (
    <form
      className="flex min-w-0 flex-1 items-center gap-2"
      data-testid="root-form"
      onSubmit={(e) => {
        e.preventDefault();
        const v = value.trim();
        router.push(v ? `/runs?root=${encodeURIComponent(v)}` : "/runs");
      }}
    >
      <label className="relative block min-w-0 flex-1 sm:max-w-md">
        <FolderOpen size={14} className="pointer-events-none absolute top-1/2 left-2.5 -translate-y-1/2 text-muted" aria-hidden />
        <input
          value={value}
          onChange={(e) => setValue(e.target.value)}
          placeholder={root}
          aria-label="Runs root"
          data-testid="root-input"
          className="h-8 w-full rounded-md border border-border bg-panel pr-2 pl-8 font-mono text-xs placeholder:text-muted focus:border-accent focus:outline-none"
        />
      </label>
      <Button type="submit" className="px-2.5" data-testid="root-apply">
        Open
      </Button>
      {override ? (
        <Button
          variant="ghost"
          className="px-2"
          onClick={() => {
            setValue("");
            router.push("/runs");
          }}
        >
          Use settings
        </Button>
      ) : null}
    </form>
  );
}
