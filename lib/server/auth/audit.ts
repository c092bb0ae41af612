import "server-only";
import { db } from "@/lib/db/client";
import { currentPerson } from "./person";

/**
 * One line of the audit log: who (the request's person; "cli" for a command on the server's
 * machine; "local" on a server without sign-in), what and on what. Written beside the change it
 * records, never instead of it: a failed audit write fails the change.
 */
export async function audit(action: string, subject: string, detail?: Record<string, unknown>, actor?: string): Promise<void> {
  await db().auditEvent.create({
    data: { userEmail: actor ?? currentPerson()?.email ?? "local", action, subject, detail: detail ? JSON.stringify(detail) : null },
  });
}

export async function auditEvents(options: { user?: string; limit?: number } = {}) {
  return db().auditEvent.findMany({
    where: options.user ? { userEmail: options.user } : {},
    orderBy: { at: "desc" },
    take: options.limit ?? 500,
  });
}
