import type { Metadata } from "next";
import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
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

export default function RootLayout({ children }: { children: ReactNode }) {
  const facts = footerFacts();
  return (
    <html lang="en" suppressHydrationWarning>
      <body className="min-h-screen font-sans antialiased">
        <AppShell model={facts.model} database={facts.database}>
          {children}
        </AppShell>
      </body>
    </html>
  );
}
