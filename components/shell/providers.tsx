"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { ThemeProvider } from "next-themes";
import { useState, type ReactNode } from "react";
import { Toaster } from "sonner";
import { THEME_STORAGE_KEY } from "./theme";

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { staleTime: 30_000 } } }));
  return (
    // next-themes' inline script runs before first paint (no flash): an explicit choice stored
    // under THEME_STORAGE_KEY wins, else the system preference; `dark` on <html> drives the CSS,
    // which also sets color-scheme, so the library need not.
    <ThemeProvider attribute="class" storageKey={THEME_STORAGE_KEY} enableSystem enableColorScheme={false}>
      <QueryClientProvider client={client}>
        {children}
        <Toaster position="bottom-right" richColors closeButton />
      </QueryClientProvider>
    </ThemeProvider>
  );
}
