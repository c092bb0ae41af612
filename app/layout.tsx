import type { Metadata } from "next";
import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { pagePerson } from "@/lib/server/auth/page-person";
import { footerFacts } from "@/lib/server/runtime/footer";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Toolroom", template: "%s · Toolroom" },
  description: "A playground for LLM agents and their tools.",
  icons: {
    icon: [
      { url: "/icon.svg", type: "image/svg+xml" },
      { url: "/icon-192.png", sizes: "192x192" },
    ],
    apple: "/apple-touch-icon.png",
  },
  manifest: "/manifest.webmanifest",
};

export const dynamic = "force-dynamic";

export default async function RootLayout({ children }: { children: ReactNode }) {
  const facts = footerFacts();
  const person = await pagePerson();
  return (
    <html lang="en" suppressHydrationWarning>
      <body className="min-h-screen font-sans antialiased">
        <AppShell model={facts.model} database={facts.database} person={person && { email: person.email, role: person.role }}>
          {children}
        </AppShell>
      </body>
    </html>
  );
}
