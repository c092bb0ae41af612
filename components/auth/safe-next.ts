/** Where to go after signing in: a path on this server only (never `//evil.example` or a full URL). */
export function safeNext(next: string | string[] | undefined): string {
  const value = Array.isArray(next) ? next[0] : next;
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\") || value.startsWith("/sign-in")) return "/";
  return value;
}
