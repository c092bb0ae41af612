"use client";

import { useEffect } from "react";
import { prefersDark } from "@/components/shell/theme";
import { ErrorPanel } from "@/components/ui/error-panel";
import "./globals.css";

/**
 * The root layout itself failed (its footer reads settings and the database), so this replaces the
 * whole document: no shell, its own <html>, the person's theme applied by hand.
 */
export default function GlobalError({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => {
    console.error(error);
    document.documentElement.classList.toggle("dark", prefersDark());
  }, [error]);
  return (
    <html lang="en" suppressHydrationWarning>
      <body className="min-h-screen font-sans antialiased">
        <title>Error · Toolroom</title>
        <div className="p-6">
          <p className="mb-2 flex items-center gap-2 font-semibold tracking-tight">
            <span className="inline-block size-2.5 rounded-sm bg-accent" aria-hidden />
            Toolroom
          </p>
          <ErrorPanel error={error} retry={retry} />
        </div>
      </body>
    </html>
  );
}
