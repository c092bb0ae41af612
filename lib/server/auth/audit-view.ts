/**
 * An audit line's detail as the audit page shows it: `key value` pairs joined by " · " (the tool
 * of a decision, the suite of an eval, the server of an MCP sign-in's error), in the order written.
 */
export function auditDetail(detail: string | null): string {
  if (!detail) return "";
  let parsed: unknown;
  try {
    parsed = JSON.parse(detail);
  } catch {
    return detail;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return detail;
  return Object.entries(parsed)
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([key, value]) => `${key} ${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(" · ");
}
