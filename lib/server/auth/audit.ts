import "server-only";
import { db } from "@/lib/db/client";
import { currentPerson } from "./person";

/**
 * One line of the audit log of a shared Toolroom: who (the request's person, or "cli" for a
 * command on the server's machine), what and on what. A server without sign-in has one person and
 * keeps no log. Written after the change it records: a failed write fails the request, loudly.
 */
export async function audit(action: string, subject: string, detail?: Record<string, unknown>, actor?: string): Promise<void> {
  const who = actor ?? currentPerson()?.email;
  if (!who) return;
  await db().auditEvent.create({ data: { userEmail: who, action, subject, detail: detail ? JSON.stringify(detail) : null } });
}

export async function auditEvents(options: { user?: string; limit?: number } = {}) {
  return db().auditEvent.findMany({
    where: options.user ? { userEmail: options.user } : {},
    orderBy: { at: "desc" },
    take: options.limit ?? 500,
  });
}
