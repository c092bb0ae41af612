import Link from "next/link";
import { cn } from "@/components/ui/cn";

/** Settings' pages: the effective values, the approval rules, and (on a shared Toolroom) the audit log. */
export function SettingsTabs({ active }: { active: "values" | "approvals" | "audit" }) {
  const tab = (href: string, label: string, on: boolean) => (
    <Link
      href={href}
      aria-current={on ? "page" : undefined}
      className={cn("border-b-2 px-1 pb-1.5 text-sm", on ? "border-accent font-medium text-fg" : "border-transparent text-muted hover:text-fg")}
    >
      {label}
    </Link>
  );
  return (
    <nav aria-label="Settings" className="flex gap-4 border-b border-border px-6 pt-3">
      {tab("/settings", "Values", active === "values")}
      {tab("/settings/approvals", "Approvals", active === "approvals")}
      {tab("/settings/audit", "Audit", active === "audit")}
    </nav>
  );
}
