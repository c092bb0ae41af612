import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { SettingsTabs } from "@/components/settings/settings-tabs";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { auditEvents } from "@/lib/server/auth/audit";
import { auditDetail } from "@/lib/server/auth/audit-view";
import { pagePerson } from "@/lib/server/auth/page-person";
import { authRequired } from "@/lib/server/auth/who";

export const metadata = { title: "Audit · Settings" };

/** Who decided what, newest first: approvals, rules, people and tokens, MCP sign-ins, evals, collections, shares (admins only). */
export default async function AuditPage({ searchParams }: { searchParams: Promise<{ user?: string }> }) {
  const { user } = await searchParams;
  const person = await pagePerson();
  const body = !authRequired() ? (
    <EmptyState title="No audit log on this server" testId="audit-off">
      This Toolroom has no sign-in (loopback, SQLite): one person decides everything. On a shared one (PostgreSQL, or{" "}
      <code className="font-mono">auth.required</code>) every approval, rule change, user change, MCP sign-in, eval and collection run is listed here with who
      made it.
    </EmptyState>
  ) : person?.role !== "admin" ? (
    <EmptyState title="Admins only" testId="audit-forbidden">
      The audit log lists everyone&apos;s decisions; you are signed in as a {person?.role ?? "guest"}.
    </EmptyState>
  ) : (
    <AuditTable events={await auditEvents({ user })} user={user} />
  );
  return (
    <>
      <PageHeader title="Settings" description="Every decision on this shared Toolroom, by person and time." />
      <SettingsTabs active="audit" />
      <div className="p-6">{body}</div>
    </>
  );
}

function AuditTable({ events, user }: { events: Awaited<ReturnType<typeof auditEvents>>; user: string | undefined }) {
  if (events.length === 0)
    return (
      <EmptyState title={user ? `Nothing by ${user} yet` : "Nothing recorded yet"} testId="audit-empty">
        Approvals, rule changes, user changes, MCP sign-ins, evals and collection runs appear here as people make them.
      </EmptyState>
    );
  return (
    <div className="overflow-x-auto rounded-md border border-border">
      {user ? (
        <p className="border-b border-border px-3 py-2 text-xs text-muted">
          By {user} ·{" "}
          <a href="/settings/audit" className="text-accent hover:underline">
            everyone
          </a>
        </p>
      ) : null}
      <Table data-testid="audit-table">
        <TableHeader>
          <TableRow>
            <TableHead>When</TableHead>
            <TableHead>Who</TableHead>
            <TableHead>What</TableHead>
            <TableHead>On</TableHead>
            <TableHead>Detail</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {events.map((e) => (
            <TableRow key={e.id} data-testid="audit-row">
              <TableCell className="font-mono text-xs whitespace-nowrap">{e.at.toISOString().replace("T", " ").slice(0, 19)}</TableCell>
              <TableCell className="text-xs">
                <a href={`/settings/audit?user=${encodeURIComponent(e.userEmail)}`} className="text-accent hover:underline">
                  {e.userEmail}
                </a>
              </TableCell>
              <TableCell className="font-mono text-xs">{e.action}</TableCell>
              <TableCell className="font-mono text-xs [overflow-wrap:anywhere]">{e.subject}</TableCell>
              <TableCell className="font-mono text-xs text-muted [overflow-wrap:anywhere]">{auditDetail(e.detail)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
