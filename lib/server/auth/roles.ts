// The three roles of a shared Toolroom and what each may do (issue AA): a viewer reads, a member
// also chats, tries tools, approves calls in their own chats and starts evals and collections, an
// admin also changes rules, settings, users, MCP sign-ins and plugins.
export const ROLES = ["viewer", "member", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** What a route needs: `public` (sign-in itself, health), or at least a role. */
export type Access = "public" | Role;

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** A role at least as strong as `needed`; an unknown role (a row edited by hand) is a viewer. */
export function mayAct(role: string, needed: Role): boolean {
  const have = isRole(role) ? ROLES.indexOf(role) : 0;
  return have >= ROLES.indexOf(needed);
}
