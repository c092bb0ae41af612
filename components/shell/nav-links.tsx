"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";

const LINKS = [
  { href: "/chat", label: "Chat" },
  { href: "/compare", label: "Compare" },
  { href: "/tools", label: "Tools" },
  { href: "/sources", label: "Sources" },
  { href: "/runs", label: "Runs" },
  { href: "/evals", label: "Evals" },
  { href: "/collections", label: "Collections" },
  { href: "/settings", label: "Settings" },
] as const;

export function NavLinks() {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="flex min-w-0 items-center gap-1 overflow-x-auto">
      {LINKS.map((link) => {
        const active = pathname === link.href || pathname.startsWith(`${link.href}/`);
        return (
          <Link
            key={link.href}
            href={link.href}
            data-testid={`nav-${link.label.toLowerCase()}`}
            aria-current={active ? "page" : undefined}
            className={cn("rounded-md px-2.5 py-1 text-sm", active ? "bg-accent-soft font-medium text-fg" : "text-muted hover:bg-subtle hover:text-fg")}
          >
            {link.label}
          </Link>
        );
      })}
    </nav>
  );
}
