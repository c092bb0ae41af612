import Link from "next/link";
import type { ReactNode } from "react";
import { AccountMenu } from "@/components/auth/account-menu";
import { PersonProvider, type PagePerson } from "@/components/auth/person-context";
import { FooterModel } from "./footer-model-label";
import { NavLinks } from "./nav-links";
import { Providers } from "./providers";
import { LiveReload } from "./use-live-reload";
import { ThemeToggle } from "./theme-toggle";

export function AppShell({ model, database, person, children }: { model: string; database: string; person: PagePerson | null; children: ReactNode }) {
  return (
    <Providers>
      <PersonProvider person={person}>
        <LiveReload />
        <div className="flex h-screen flex-col">
          <header className="sticky top-0 z-20 flex h-12 items-center gap-6 border-b border-border bg-panel/90 px-4 backdrop-blur">
            <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight" data-testid="brand">
              <span className="inline-block size-2.5 rounded-sm bg-accent" aria-hidden />
              Toolroom
            </Link>
            <NavLinks />
            <div className="ml-auto flex items-center gap-3">
              {person ? <AccountMenu person={person} /> : null}
              <ThemeToggle />
            </div>
          </header>
          <main className="flex min-h-0 flex-1 flex-col overflow-y-auto">{children}</main>
          <footer className="flex h-7 items-center gap-4 border-t border-border bg-panel px-4 font-mono text-xs text-muted" data-testid="footer">
            <FooterModel defaultLabel={model} />
            <span>
              database: <span data-testid="footer-database">{database}</span>
            </span>
          </footer>
        </div>
      </PersonProvider>
    </Providers>
  );
}
