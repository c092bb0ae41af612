/**
 * A tool call's row as the database holds it: tests check what the services wrote. Imported late,
 * so the client opens the database the test pointed DATABASE_URL at.
 */
export async function storedToolCall(id: string) {
  const { db } = await import("@/lib/db/client");
  return db().toolCall.findUnique({ where: { id } });
}
